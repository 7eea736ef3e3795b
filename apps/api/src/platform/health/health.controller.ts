import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/access.decorators';

class HealthResponse {
  @ApiProperty({ example: 'ok' }) status!: string;
}

/** Answers once the stores are open and the schema is migrated: the server listens only after that. */
@ApiTags('Health')
@Public()
@Controller('health')
export class HealthController {
  @Get()
  @ApiOkResponse({ type: HealthResponse })
  health(): HealthResponse {
    return { status: 'ok' };
  }
}
