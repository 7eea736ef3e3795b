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
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ApiDocument } from '../platform/api-document/api-document';
import { fitJson, fitText, MAX_ANSWER_CHARS } from './fit-answer';
import { RestAnswer, RestDispatcher } from './rest-dispatcher';
import { NARROWING_INPUTS, ToolDefinition, toolsOfDocument } from './tool-catalogue';

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
        annotations: {
          readOnlyHint: tool.method === 'GET',
          destructiveHint: tool.method === 'DELETE' || tool.method === 'PUT',
          openWorldHint: false,
        },
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
      const answer = report
        ? await this.callByName('exportAgentReport', { projectId: decodeURIComponent(report[1]!) }, authorization)
        : await this.callByName('getProject', { id: decodeURIComponent(project![1]!) }, authorization);
      return { contents: [{ uri, mimeType: report ? 'text/markdown' : 'application/json', text: answer.text }] };
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

    server.setRequestHandler(GetPromptRequestSchema, (request) => {
      if (request.params.name !== 'weekly-ranking-report')
        throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}`);
      const projectId = request.params.arguments?.projectId;
      if (!projectId) throw new McpError(ErrorCode.InvalidParams, 'projectId is required');
      const now = this.clock.now();
      const today = utcDay(now);
      const weekAgo = utcDay(new Date(now.getTime() - 7 * 86_400_000));
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

/** The REST body as the tool result: JSON as text and structuredContent, other types as text; failures as tool errors. */
function toolResult(tool: ToolDefinition, answer: RestAnswer): CallToolResult {
  const failed = answer.status >= 400 || (isRecord(answer.json) && answer.json.success === false);
  if (failed) {
    const structured = isRecord(answer.json) ? { status: answer.status, ...answer.json } : { status: answer.status, message: answer.text };
    return { isError: true, content: [{ type: 'text', text: messageOf(answer) }], structuredContent: structured };
  }
  const hint = narrowingHint(tool);
  if (answer.json === undefined) {
    const { text, cut } = fitText(answer.text);
    return { content: [{ type: 'text', text: cut ? `${text}\n[Cut at ${MAX_ANSWER_CHARS} characters. ${hint}]` : text }] };
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
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function narrowingHint(tool: ToolDefinition): string {
  const narrowing = NARROWING_INPUTS.filter((name) => name in tool.inputSchema.properties);
  return narrowing.length > 0
    ? `The answer was too long: narrow the query with ${narrowing.join(', ')} (e.g. a shorter date range or aggregation=weekly).`
    : 'The answer was too long: ask for fewer items.';
}

function messageOf(answer: RestAnswer): string {
  if (isRecord(answer.json) && typeof answer.json.message === 'string') return answer.json.message;
  return answer.text || `HTTP ${answer.status}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
