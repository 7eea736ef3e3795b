import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { findProject } from '@rank/projects/domain/workspace';
import { notFound } from '@rank/domain/domain-error';
import { newObjectId } from '@rank/domain/object-id';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { newProjectSettings, parseFolder, ProjectSettingsBody } from '../project-input';
import { ProjectView, toProjectView } from '../project.view';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';

/** `competitors` is accepted and ignored on create (spec: settable by update only). */
export class CreateProjectBody extends ProjectSettingsBody {}

class CreateProjectResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: ProjectView }) project!: ProjectView;
  @ApiProperty({ example: 'Project created' }) message!: string;
}

@ApiTags('Projects')
@ApiBearerAuth()
@Controller('api/projects')
export class CreateProjectController {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The project's own stream is opened first (it names the owner), then the project joins the
   * workspace. ProjectCreated is what starts the project's background work.
   */
  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: CreateProjectResponse })
  async create(@CurrentAccount() caller: AccountCaller, @Body() body: CreateProjectBody): Promise<CreateProjectResponse> {
    const settings = newProjectSettings(body);
    const folder = parseFolder(body.folder) ?? null;
    if (folder !== null && !(await this.workspaces.load(caller.accountId)).folders.some((f) => f.folderId === folder)) {
      throw notFound('Folder not found');
    }
    const now = this.clock.now();
    const projectId = newObjectId(now);
    await this.contents.handle(projectId, { type: 'RecordOwner', projectId, accountId: caller.accountId }, now);
    try {
      const { state } = await this.workspaces.handle(
        caller.accountId,
        { type: 'CreateProject', projectId, accountId: caller.accountId, settings, folder },
        now,
      );
      return { success: true, project: toProjectView(findProject(state, projectId)!), message: 'Project created' };
    } catch (error) {
      await this.contents.delete(projectId);
      throw error;
    }
  }
}
