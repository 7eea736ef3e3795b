import { Inject, Injectable } from '@nestjs/common';
import { ProjectContentCommand, projectContentDecider, ProjectContentState } from './domain/project-content';
import { ProjectContentEvent, projectStreamName } from './domain/project-content.events';
import { WorkspaceCommand, workspaceDecider, WorkspaceState } from './domain/workspace';
import { WorkspaceEvent, workspaceStreamName } from './domain/workspace.events';
import { AggregateRepository } from '@rank/event-store/aggregate-repository';
import type { EventStore } from '@rank/event-store/event-store.port';
import { StateCache } from '@rank/event-store/state-cache';
import { EVENT_STORE, STATE_CACHE } from '@rank/platform/tokens';

/** An account's folders and project settings (stream `workspace-<accountId>`). */
@Injectable()
export class WorkspaceRepository {
  private readonly repository: AggregateRepository<WorkspaceCommand, WorkspaceEvent, WorkspaceState>;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(STATE_CACHE) cache: StateCache) {
    this.repository = new AggregateRepository(store, workspaceDecider, cache);
  }

  async load(accountId: string): Promise<WorkspaceState> {
    return (await this.repository.load(workspaceStreamName(accountId))).state;
  }

  handle(accountId: string, command: WorkspaceCommand, now: Date) {
    return this.repository.handle(workspaceStreamName(accountId), command, { now: () => now });
  }
}

/** A project's owner, keywords and notes (stream `project-<projectId>`). */
@Injectable()
export class ProjectContentRepository {
  private readonly repository: AggregateRepository<ProjectContentCommand, ProjectContentEvent, ProjectContentState>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(STATE_CACHE) cache: StateCache,
  ) {
    this.repository = new AggregateRepository(store, projectContentDecider, cache);
  }

  async load(projectId: string): Promise<ProjectContentState> {
    return (await this.repository.load(projectStreamName(projectId))).state;
  }

  handle(projectId: string, command: ProjectContentCommand, now: Date) {
    return this.repository.handle(projectStreamName(projectId), command, { now: () => now });
  }

  async delete(projectId: string): Promise<void> {
    await this.store.deleteStream(projectStreamName(projectId));
    this.repository.forget(projectStreamName(projectId));
  }
}
