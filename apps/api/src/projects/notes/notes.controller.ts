import { Body, Controller, Delete, Get, Inject, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiQuery, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { FastifyReply } from 'fastify';
import type { ProjectContentState } from '@rank/projects/domain/project-content';
import { Note, NOTE_COLORS, NoteColor } from '@rank/projects/domain/project-content.events';
import { startOfUtcDay } from '@rank/domain/calendar-date';
import { invalid, notFound } from '@rank/domain/domain-error';
import { isObjectId, newObjectId } from '@rank/domain/object-id';
import { PublicWhenShared, RefusedWhenSuspended } from '../../platform/auth/access.decorators';
import { AccountCaller, Caller, CurrentAccount, CurrentCaller } from '../../platform/auth/caller';
import { DATE_RANGE_NOTE, IsCalendarDate, OBJECT_ID_PATTERN, ObjectIdField, RequiredText } from '../../platform/http/validators';
import { MultilineText } from '../../platform/http/well-formed-input';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository, WorkspaceRepository } from '@rank/projects/workspace.repository';

class NoteView {
  @ApiProperty() _id!: string;
  @ApiProperty() projectId!: string;
  @ApiProperty({ format: 'date-time', description: 'The day at 00:00:00 UTC' }) date!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ enum: NOTE_COLORS }) color!: NoteColor;
}

class SaveNoteBody {
  @ObjectIdField()
  projectId!: string;

  @ApiProperty({ example: '2026-03-01', format: 'date', description: `The day; ${DATE_RANGE_NOTE}` })
  @IsCalendarDate()
  date!: string;

  @RequiredText(2000)
  @MultilineText()
  text!: string;

  @ApiPropertyOptional({
    enum: NOTE_COLORS,
    default: 'info',
    description: 'Default `info` when a note is created; on an update, a sent color replaces the old one and an unsent one keeps it',
  })
  @IsOptional()
  @IsIn(NOTE_COLORS)
  color?: NoteColor;
}

class DeleteNoteBody {
  @ObjectIdField()
  noteId!: string;
}

class NotesResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [NoteView] }) data!: NoteView[];
}
class NoteResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ example: 'Note saved' }) message!: string;
  @ApiProperty({ type: NoteView }) data!: NoteView;
}
class DeleteNoteResponse extends NotesResponse {
  @ApiProperty({ example: 'Note deleted' }) message!: string;
}

const toNoteView = (projectId: string, note: Note): NoteView => ({
  _id: note.noteId,
  projectId,
  date: startOfUtcDay(note.date),
  text: note.text,
  color: note.color,
});
const notesOf = (projectId: string, content: ProjectContentState) =>
  [...content.notes].sort((a, b) => a.date.localeCompare(b.date)).map((n) => toNoteView(projectId, n));

/** Timeline notes, one per project and day. Writes need an active subscription. */
@ApiTags('Notes')
@ApiBearerAuth()
@Controller('api/projects/notes')
export class NotesController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly workspaces: WorkspaceRepository,
    private readonly contents: ProjectContentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Public when the project is shared. Oldest first. */
  @Get()
  @PublicWhenShared()
  @ApiQuery({ name: 'projectId', required: true, type: String, example: '6740a1b2c3d4e5f601234567', pattern: OBJECT_ID_PATTERN })
  @ApiOkResponse({ type: NotesResponse })
  async list(@CurrentCaller() caller: Caller, @Query('projectId') projectId: unknown): Promise<NotesResponse> {
    if (projectId === undefined || projectId === '') throw invalid('projectId is required');
    if (!isObjectId(projectId)) throw invalid('projectId must be a 24-character hex id');
    const { project } = await this.access.readable(caller, projectId);
    return { success: true, data: notesOf(project.projectId, await this.contents.load(project.projectId)) };
  }

  /** Upsert by (project, day): 201 Note saved when created, 200 Note updated when it existed. */
  @Post()
  @RefusedWhenSuspended()
  @ApiCreatedResponse({ type: NoteResponse, description: 'Note saved: there was no note for the day' })
  @ApiOkResponse({ type: NoteResponse, description: "Note updated: the day's note existed" })
  async save(
    @CurrentAccount() caller: AccountCaller,
    @Body() body: SaveNoteBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<NoteResponse> {
    const { project } = await this.access.owned(caller, body.projectId);
    const now = this.clock.now();
    const { events, state } = await this.contents.handle(
      project.projectId,
      {
        type: 'SaveNote',
        noteId: newObjectId(now),
        date: body.date,
        text: body.text,
        color: body.color,
      },
      now,
    );
    const created = events.some((e) => e.type === 'NoteSaved');
    const note = state.notes.find((n) => n.date === body.date)!;
    void reply.status(created ? 201 : 200);
    return { success: true, message: created ? 'Note saved' : 'Note updated', data: toNoteView(project.projectId, note) };
  }

  /** The note is found among the caller's projects; the answer lists the project's remaining notes. */
  @Delete()
  @RefusedWhenSuspended()
  @ApiOkResponse({ type: DeleteNoteResponse })
  async delete(@CurrentAccount() caller: AccountCaller, @Body() body: DeleteNoteBody): Promise<DeleteNoteResponse> {
    for (const project of (await this.workspaces.load(caller.accountId)).projects) {
      const content = await this.contents.load(project.projectId);
      if (!content.notes.some((n) => n.noteId === body.noteId)) continue;
      const { state } = await this.contents.handle(project.projectId, { type: 'DeleteNote', noteId: body.noteId }, this.clock.now());
      return { success: true, message: 'Note deleted', data: notesOf(project.projectId, state) };
    }
    throw notFound('Note not found');
  }
}
