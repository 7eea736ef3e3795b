import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ApiKeyView {
  @ApiProperty({ example: '6740a1b2c3d4e5f601234567' }) _id!: string;
  @ApiProperty({ maxLength: 100 }) name!: string;
  @ApiProperty({ description: 'First 4 characters of the secret, then a mask', example: 'k3Xa••••••••' }) keyPrefix!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) lastUsedAt?: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}
