import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiProperty, ApiQuery, ApiTags } from '@nestjs/swagger';
import { invalid } from '@rank/domain/domain-error';
import { newObjectId, isObjectId } from '@rank/domain/object-id';
import { RefusedWhenSuspended } from '../../platform/auth/access.decorators';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { OBJECT_ID_PATTERN, RequiredText } from '../../platform/http/validators';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { FolderView, ProjectView, toFolderView, toFolderViews, toProjectView } from '../project.view';
import { WorkspaceRepository } from '@rank/projects/workspace.repository';

/** The `id` query of PUT and DELETE: the folder renamed or deleted. */
const FOLDER_ID_QUERY = {
  name: 'id',
  required: true,
  type: String,
  example: '6740a1b2c3d4e5f601234567',
  pattern: OBJECT_ID_PATTERN,
  description: 'Folder id',
};

class FolderNameBody {
  @RequiredText(100, { example: 'Clients' })
  name!: string;
}

class FoldersResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [FolderView] }) folders!: FolderView[];
}
class FolderResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: FolderView }) folder!: FolderView;
  @ApiProperty() message!: string;
}
class DeleteFolderResponse extends FoldersResponse {
  @ApiProperty() message!: string;
  @ApiProperty({ type: [ProjectView] }) projects!: ProjectView[];
}

function folderIdFromQuery(id: unknown): string {
  if (id === undefined || id === '') throw invalid('id is required (query parameter)');
  if (!isObjectId(id)) throw invalid('id must be a 24-character hex id');
  return id;
}

/** Folders of the account's projects. Writes need an active subscription (refused when suspended). */
@ApiTags('Folders')
@ApiBearerAuth()
@Controller('api/projects/folders')
export class FoldersController {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOkResponse({ type: FoldersResponse })
  async list(@CurrentAccount() caller: AccountCaller): Promise<FoldersResponse> {
    return { success: true, folders: toFolderViews((await this.workspaces.load(caller.accountId)).folders) };
  }

  @Post()
  @HttpCode(201)
  @RefusedWhenSuspended()
  @ApiCreatedResponse({ type: FolderResponse })
  async create(@CurrentAccount() caller: AccountCaller, @Body() body: FolderNameBody): Promise<FolderResponse> {
    const now = this.clock.now();
    const folderId = newObjectId(now);
    const { state } = await this.workspaces.handle(caller.accountId, { type: 'CreateFolder', folderId, name: body.name }, now);
    return { success: true, folder: toFolderView(state.folders.find((f) => f.folderId === folderId)!), message: 'Folder created' };
  }

  @Put()
  @RefusedWhenSuspended()
  @ApiQuery(FOLDER_ID_QUERY)
  @ApiOkResponse({ type: FolderResponse })
  async rename(@CurrentAccount() caller: AccountCaller, @Query('id') id: unknown, @Body() body: FolderNameBody): Promise<FolderResponse> {
    const folderId = folderIdFromQuery(id);
    const { state } = await this.workspaces.handle(caller.accountId, { type: 'RenameFolder', folderId, name: body.name }, this.clock.now());
    return { success: true, folder: toFolderView(state.folders.find((f) => f.folderId === folderId)!), message: 'Folder updated' };
  }

  /** Unassigns the folder's projects (they remain), then deletes it. */
  @Delete()
  @RefusedWhenSuspended()
  @ApiQuery(FOLDER_ID_QUERY)
  @ApiOkResponse({ type: DeleteFolderResponse })
  async delete(@CurrentAccount() caller: AccountCaller, @Query('id') id: unknown): Promise<DeleteFolderResponse> {
    const folderId = folderIdFromQuery(id);
    const { state } = await this.workspaces.handle(caller.accountId, { type: 'DeleteFolder', folderId }, this.clock.now());
    return { success: true, message: 'Folder deleted', folders: toFolderViews(state.folders), projects: state.projects.map(toProjectView) };
  }
}
