import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { utcDay } from '@rank/domain/calendar-date';
import { isObjectId } from '@rank/domain/object-id';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ApiDocument } from '../platform/api-document/api-document';
import { fitJson, fitText, MAX_ANSWER_CHARS } from './fit-answer';
import { RestAnswer, RestDispatcher } from './rest-dispatcher';
import { API_OPERATIONS } from '../platform/api-document/api-operations';
import { ToolDefinition, toolsOfDocument } from './tool-catalogue';

const INSTRUCTIONS =
  'Rank tracking: projects track where a website ranks on Google for its keywords. Start with listProjects, then getProject for keyword ids; ' +
  'getKeywordUpdates gives the ranking history, getPositionHistory one SERP snapshot. Writes (addKeywords, scrapeKeywords, saveNote…) change the account. ' +
  `Answers above ${MAX_ANSWER_CHARS} characters are cut and carry _truncated with a hint to narrow the query.`;

const PROJECT_URI = /^project:\/\/([^/?#]+)$/;
const REPORT_URI = /^project:\/\/([^/?#]+)\/report$/;

/**
 * One MCP server per HTTP request (the endpoint is stateless, so any api replica serves any call),
 * for one caller: every tool, resource and prompt runs through the REST routes with the caller's key.
 */
@Injectable()
export class McpServerFactory {
  private tools: { document: unknown; byName: Map<string, ToolDefinition> } | undefined;

  constructor(
    private readonly document: ApiDocument,
    private readonly rest: RestDispatcher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The tools of the served document, derived once. */
  toolsByName(): Map<string, ToolDefinition> {
    const document = this.document.get();
    if (this.tools?.document !== document) {
      this.tools = { document, byName: new Map(toolsOfDocument(document).map((tool) => [tool.name, tool])) };
    }
    return this.tools.byName;
  }

  create(authorization: string): Server {
    const server = new Server(
      { name: 'rank-tracker', title: 'Rank-Tracking API', version: '1.0.0' },
      { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
    );
    const tools = this.toolsByName();

    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...tools.values()].map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: annotationsOf(tool),
      })),
    }));

    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = tools.get(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
      const answer = await this.rest.call(tool, request.params.arguments ?? {}, authorization);
      return toolResult(tool, answer);
    });

    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [
        {
          uriTemplate: 'project://{id}',
          name: 'project',
          title: 'Project',
          description: 'A project with its keywords, competitors and settings (as getProject)',
          mimeType: 'application/json',
        },
        {
          uriTemplate: 'project://{id}/report',
          name: 'project-report',
          title: 'Project report',
          description: 'The Markdown report of a project (as exportAgentReport)',
          mimeType: 'text/markdown',
        },
      ],
    }));

    server.setRequestHandler(ListResourcesRequestSchema, async () => {
      const answer = await this.callByName('listProjects', {}, authorization);
      const projects = (answer.json as { projects?: { _id: string; name: string; domain: string }[] }).projects ?? [];
      return {
        resources: projects.flatMap((project) => [
          {
            uri: `project://${project._id}`,
            name: project.name,
            description: `Project ${project.name} (${project.domain})`,
            mimeType: 'application/json',
          },
          {
            uri: `project://${project._id}/report`,
            name: `${project.name} report`,
            description: `Markdown report of ${project.domain}`,
            mimeType: 'text/markdown',
          },
        ]),
      };
    });

    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const { uri } = request.params;
      const report = REPORT_URI.exec(uri);
      const project = PROJECT_URI.exec(uri);
      if (!report && !project)
        throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}: use project://{id} or project://{id}/report`);
      const id = decodedId((report ?? project)![1]!);
      if (id === null) throw new McpError(ErrorCode.InvalidParams, `The id in ${uri} must be percent-encoded UTF-8 text`);
      const [name, args] = report ? ['exportAgentReport', { projectId: id }] : ['getProject', { id }];
      const answer = await this.callByName(name, args, authorization);
      const fitted = fitAnswer(this.toolsByName().get(name)!, answer);
      return { contents: [{ uri, mimeType: report ? 'text/markdown' : 'application/json', text: fitted.text }] };
    });

    server.setRequestHandler(ListPromptsRequestSchema, () => ({
      prompts: [
        {
          name: 'weekly-ranking-report',
          title: 'Weekly ranking report',
          description:
            "A report of the last 7 days of a project's rankings: winners, losers, keywords entering or leaving the top 10, with the notes of the week",
          arguments: [{ name: 'projectId', description: 'The project id (see listProjects)', required: true }],
        },
      ],
    }));

    server.setRequestHandler(GetPromptRequestSchema, async (request) => {
      if (request.params.name !== 'weekly-ranking-report')
        throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}`);
      const projectId = request.params.arguments?.projectId;
      if (!projectId) throw new McpError(ErrorCode.InvalidParams, 'projectId is required');
      if (!isObjectId(projectId)) throw new McpError(ErrorCode.InvalidParams, 'projectId must be a 24-character hex id');
      // The prompt names the project: one the caller may read (Project not found otherwise).
      await this.callByName('getProject', { id: projectId }, authorization);
      const now = this.clock.now();
      const today = utcDay(now);
      // Seven days, today included: getKeywordUpdates reads both ends of its range.
      const weekAgo = utcDay(new Date(now.getTime() - 6 * 86_400_000));
      return {
        description: `Weekly ranking report for project ${projectId}`,
        messages: [{ role: 'user', content: { type: 'text', text: weeklyReportPrompt(projectId, weekAgo, today) } }],
      };
    });

    return server;
  }

  private async callByName(name: string, args: Record<string, unknown>, authorization: string): Promise<RestAnswer> {
    const tool = this.toolsByName().get(name);
    if (!tool) throw new McpError(ErrorCode.InternalError, `The ${name} operation is not served`);
    const answer = await this.rest.call(tool, args, authorization);
    if (answer.status >= 400) throw new McpError(ErrorCode.InvalidParams, messageOf(answer));
    return answer;
  }
}

/** A resource URI's id, percent-decoded; null when its encoding is not UTF-8 text (`%E0%A4%A`). */
function decodedId(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

function weeklyReportPrompt(projectId: string, from: string, to: string): string {
  return [
    `Write a weekly ranking report for project ${projectId}, covering ${from} to ${to}.`,
    `1. Call getProject with id ${projectId} for its domain, keywords and competitors.`,
    `2. Call getKeywordUpdates with projectId ${projectId}, startDate ${from}, endDate ${to}.`,
    `3. Call listNotes with projectId ${projectId} and keep the notes dated in the week.`,
    'Report: the biggest winners and losers (position change over the week), keywords that entered or left the top 10, ' +
      'keywords not found in the results, and the notes that may explain changes. Keep it short, with a table of the ten largest moves.',
  ].join('\n');
}

/** What MCP's tool annotations say of a tool, from its method and what its operation is known to do. */
function annotationsOf(tool: ToolDefinition) {
  const operation = API_OPERATIONS[`${tool.method} ${tool.path}`];
  return {
    readOnlyHint: tool.method === 'GET',
    destructiveHint: tool.method === 'DELETE' || tool.method === 'PUT' || operation?.replaces === true,
    openWorldHint: operation?.reachesOut === true,
  };
}

/** The REST body as the tool result: JSON as text and structuredContent, other types as text; failures as tool errors. */
function toolResult(tool: ToolDefinition, answer: RestAnswer): CallToolResult {
  const failed = answer.status >= 400 || (isRecord(answer.json) && answer.json.success === false);
  if (failed) {
    const structured = isRecord(answer.json) ? { status: answer.status, ...answer.json } : { status: answer.status, message: answer.text };
    return { isError: true, content: [{ type: 'text', text: messageOf(answer) }], structuredContent: structured };
  }
  const { text, structured } = fitAnswer(tool, answer);
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) };
}

/**
 * A successful answer within MAX_ANSWER_CHARS, as a tool result or a resource carries it: JSON cut
 * by its largest lists, with `_truncated` saying what was cut; other text cut at a line end, with a
 * closing note inside the limit.
 */
function fitAnswer(tool: ToolDefinition, answer: RestAnswer): { text: string; structured?: Record<string, unknown> } {
  const hint = narrowingHint(tool);
  if (answer.json === undefined) {
    const note = `\n[Cut at ${MAX_ANSWER_CHARS} characters. ${hint}]`;
    const { text, cut } = fitText(answer.text, MAX_ANSWER_CHARS - note.length);
    return { text: cut ? `${text}${note}` : answer.text };
  }
  const body = isRecord(answer.json) ? answer.json : { data: answer.json };
  const { value, cuts } = fitJson(body, MAX_ANSWER_CHARS - 2_000);
  const structured = value as Record<string, unknown>;
  if (cuts.length > 0) {
    structured._truncated = {
      limitChars: MAX_ANSWER_CHARS,
      cuts: cuts.slice(0, 20),
      ...(cuts.length > 20 ? { moreCuts: cuts.length - 20 } : {}),
      hint,
    };
  }
  return { text: JSON.stringify(structured), structured };
}

/** How to get a shorter answer: a read's narrowing inputs, with examples of the ones it has. */
function narrowingHint(tool: ToolDefinition): string {
  if (tool.method !== 'GET') return 'The answer was too long to show whole: only the answer was cut, not what the request did.';
  if (tool.narrowing.length === 0) return 'The answer was too long: ask for fewer items.';
  const enumOf = (name: string) => (tool.inputSchema.properties[name]?.enum as unknown[] | undefined) ?? [];
  const examples = [
    ...(tool.narrowing.includes('startDate') ? ['a shorter date range'] : []),
    ...(enumOf('aggregation').includes('weekly') ? ['aggregation=weekly'] : []),
    ...(enumOf('format').includes('summary') ? ['format=summary'] : []),
    ...(tool.narrowing.includes('keywordId') ? ['one keywordId'] : []),
  ];
  return `The answer was too long: narrow the query with ${tool.narrowing.join(', ')}${examples.length > 0 ? ` (e.g. ${examples.join(', ')})` : ''}.`;
}

function messageOf(answer: RestAnswer): string {
  if (isRecord(answer.json) && typeof answer.json.message === 'string') return answer.json.message;
  return answer.text || `HTTP ${answer.status}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
