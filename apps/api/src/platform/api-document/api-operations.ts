/**
 * The operations of the public API in one place: the operationId each route has in the OpenAPI
 * document (which is also the MCP tool's name and the generated client's method name), its summary,
 * and a description that tells a person or an agent when to use it. The statuses listed here are the
 * errors particular to an operation; 400, 401, 403, 413, 415 and 431 are added wherever they can happen
 * (see refine-document.ts). A test asserts that every documented route has an entry.
 */
export interface ApiOperation {
  operationId: string;
  summary: string;
  description: string;
  /** Error statuses this operation can answer besides 400/401/403. */
  errors?: readonly (404 | 409 | 429 | 502)[];
  /** It makes the service ask Google or a data provider (an MCP tool's `openWorldHint`). */
  reachesOut?: true;
  /** A write that may replace what is there, though not a PUT or DELETE (an MCP tool's `destructiveHint`). */
  replaces?: true;
}

/** Keyed by `METHOD /path` as the document writes paths (`{id}` for a path parameter). */
export const API_OPERATIONS: Readonly<Record<string, ApiOperation>> = {
  'GET /api/projects': {
    operationId: 'listProjects',
    summary: 'List projects',
    description: 'All projects of the account with their settings. Use it first to find a project id by name or domain.',
  },
  'POST /api/projects': {
    operationId: 'createProject',
    summary: 'Create a project',
    description: 'Starts tracking a website (domain) under a name. Keywords are added afterwards with addKeywords.',
    errors: [404],
  },
  'PUT /api/projects': {
    operationId: 'updateProject',
    summary: 'Update a project',
    description:
      "Changes a project's settings: `_id`, `name` and `domain` are required every time; a field left out keeps its value. The only way to set competitors.",
    errors: [404],
  },
  'DELETE /api/projects': {
    operationId: 'deleteProject',
    summary: 'Delete a project',
    description: 'Deletes a project with its keywords and history; answers the refreshed project and folder lists.',
    errors: [404],
  },
  'GET /api/projects/{id}': {
    operationId: 'getProject',
    summary: 'Get a project',
    description:
      'One project with its keywords (ids, text, market, latest position), competitors and settings. Use it to find keyword ids. Public when the project is shared.',
    errors: [404],
  },
  'GET /api/projects/folders': {
    operationId: 'listFolders',
    summary: 'List folders',
    description: "The folders that group the account's projects.",
  },
  'POST /api/projects/folders': {
    operationId: 'createFolder',
    summary: 'Create a folder',
    description: 'Creates a folder for grouping projects; names are unique regardless of case.',
    errors: [409],
  },
  'PUT /api/projects/folders': {
    operationId: 'updateFolder',
    summary: 'Rename a folder',
    description: 'Renames the folder given by the `id` query parameter; names are unique regardless of case.',
    errors: [404, 409],
  },
  'DELETE /api/projects/folders': {
    operationId: 'deleteFolder',
    summary: 'Delete a folder',
    description: 'Deletes a folder; its projects stay, outside any folder.',
    errors: [404],
  },
  'POST /api/projects/keywords': {
    operationId: 'addKeywords',
    summary: 'Add keywords to a project',
    description:
      'Adds keywords to track in one market (geoCode country, langCode language). Duplicates are dropped silently; at most 3500 keywords per project. Positions appear after the next check (see scrapeKeywords).',
    errors: [404],
  },
  'DELETE /api/projects/keywords': {
    operationId: 'removeKeywords',
    summary: 'Remove keywords from a project',
    description: 'Stops tracking the given keyword ids of a project.',
    errors: [404],
  },
  'POST /api/scrape/new-keywords': {
    operationId: 'scrapeKeywords',
    summary: 'Check keywords now',
    description:
      "Queues a fresh Google check of the given keywords and returns at once; read the results later with getKeywordUpdates. Costs 1 balance credit per keyword (2 when the project's serpTop is 100).",
    errors: [404],
    reachesOut: true,
  },
  'GET /api/projects/keyword-updates': {
    operationId: 'getKeywordUpdates',
    summary: "Ranking history of a project's keywords",
    description:
      'Each keyword with its dated positions between startDate and endDate (default the last 30 days), optionally aggregated weekly or monthly and filtered by search text or market. The main read for "how do we rank". Public when the project is shared.',
    errors: [404],
  },
  'GET /api/projects/position-history': {
    operationId: 'getPositionHistory',
    summary: 'SERP snapshot of one check',
    description:
      'The top 30 Google results of one keyword check (a keywordUpdateId from getKeywordUpdates), with movements since the previous check and the AI overview sources. Use it to see who outranks the project. Public when the project is shared.',
    errors: [404],
  },
  'GET /api/projects/keyword-volumes': {
    operationId: 'getKeywordVolumes',
    summary: "Search volumes of a project's keywords",
    description:
      'Monthly search volumes: compact records of every keyword with data, or the whole history of one keyword with keywordId. Public when the project is shared.',
    errors: [404],
  },
  'POST /api/tools/serp-check': {
    operationId: 'serpCheck',
    summary: 'Live Google results for a keyword',
    description:
      "Loads Google's current results for any keyword in a market, with its search volume, without tracking it. Rate limited per account.",
    errors: [429, 502],
    reachesOut: true,
  },
  'POST /api/tools/traffic-check': {
    operationId: 'trafficCheck',
    summary: 'Traffic and page speed of a domain',
    description:
      'Estimated monthly visits and page-speed scores of any domain, fetched live when not cached. Rate limited; new domains count against a daily allowance.',
    errors: [429],
    reachesOut: true,
  },
  'GET /api/projects/keyword-suggestions': {
    operationId: 'getKeywordSuggestions',
    summary: 'AI keyword suggestions for a project',
    description:
      "Keyword ideas generated for the project's site per market, with volumes. Answers {ready: false} while generation runs: retry after a few seconds.",
    errors: [404],
  },
  'POST /api/projects/keyword-ideas': {
    operationId: 'getKeywordIdeas',
    summary: 'Keyword ideas for a project',
    description: "Related keywords with average monthly searches and competition, for a project's site in a market. Rate limited.",
    errors: [404, 429],
    reachesOut: true,
  },
  'POST /api/tools/keyword-research': {
    operationId: 'keywordResearch',
    summary: 'Keyword research from a seed',
    description:
      'Researches keywords around a seed keyword in a market. Expected failures answer success: false with a message. Rate limited.',
    errors: [429],
    reachesOut: true,
  },
  'GET /api/projects/competitor-positions': {
    operationId: 'getCompetitorPositions',
    summary: "A competitor's positions on the project's keywords",
    description: "How a competitor domain ranked for each of the project's keywords, day by day. Public when the project is shared.",
    errors: [404],
  },
  'GET /api/projects/competitors-filtered': {
    operationId: 'getCompetitorsFiltered',
    summary: 'Traffic of competitors around a domain',
    description: 'Cached traffic of up to 50 competitor domains, cut to the 3 nearest above and 3 below the main domain. Rate limited.',
    errors: [429],
  },
  'GET /api/projects/pages': {
    operationId: 'getPages',
    summary: 'Ranking pages of a project',
    description:
      "The project's URLs that rank, with their keywords and average-position trend over 90 days, worst first. Public when the project is shared.",
    errors: [404],
  },
  'GET /api/projects/pagespeed': {
    operationId: 'getPagespeed',
    summary: 'Cached page speed of a domain',
    description: 'The last measured Lighthouse scores and field data of a domain; null when never measured. Rate limited.',
    errors: [429],
  },
  'GET /api/projects/pages-pagespeed': {
    operationId: 'getPagesPagespeed',
    summary: "Page speed of a project's pages",
    description:
      'Lab metrics of each ranking page of a project, with the home page (or domain) as baseline. Public when the project is shared.',
    errors: [404],
  },
  'GET /api/projects/crux-history': {
    operationId: 'getCruxHistory',
    summary: 'Chrome UX Report history of a domain',
    description: 'Cached field data (LCP, CLS at the 75th percentile) over time for a domain and its pages. Rate limited.',
    errors: [429],
  },
  'GET /api/projects/webtraffic': {
    operationId: 'getWebtraffic',
    summary: 'Cached web traffic of a domain',
    description: 'Estimated monthly visits of a domain over the last 12 months, from the cache only. Rate limited.',
    errors: [429],
  },
  'GET /api/projects/notes': {
    operationId: 'listNotes',
    summary: "List a project's notes",
    description:
      'Timeline notes of a project (one per day), oldest first; they explain ranking changes. Public when the project is shared.',
    errors: [404],
  },
  'POST /api/projects/notes': {
    operationId: 'saveNote',
    summary: 'Save a note',
    description: "Creates the project's note for a day (201) or updates the one that exists (200).",
    errors: [404],
    replaces: true,
  },
  'DELETE /api/projects/notes': {
    operationId: 'deleteNote',
    summary: 'Delete a note',
    description: "Deletes a note by id; answers the project's remaining notes.",
    errors: [404],
  },
  'GET /api/user/capacity': {
    operationId: 'getCapacity',
    summary: 'Account capacity and limits',
    description:
      "Monthly check tokens (total, booked, available), project and keyword counts, and the account's limits and rate limits. Use it before adding many keywords.",
  },
  'GET /api/projects/export-agent': {
    operationId: 'exportAgentReport',
    summary: 'Markdown report of a project',
    description:
      'One Markdown report of rankings, traffic, competitors and performance, written for reading by people and agents. Public when the project is shared.',
    errors: [404],
  },
  'GET /api/projects/export': {
    operationId: 'exportCsv',
    summary: "CSV export of a project's rankings",
    description:
      'Rankings as semicolon-separated CSV: `full` has one column per checked day, `summary` one row per keyword with current, best, worst and average positions. Public when the project is shared.',
    errors: [404],
  },
  'GET /api/user/api-keys': {
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description: "The account's API keys (never their secrets), with when each was last used.",
  },
  'POST /api/user/api-keys': {
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: 'Creates a key and returns its secret once; at most 5 active keys per account.',
  },
  'DELETE /api/user/api-keys': {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'Revokes a key by id (body or query); it stops working at once.',
    errors: [404],
  },

  'GET /health': {
    operationId: 'getHealth',
    summary: 'Liveness',
    description: 'Answers {status: ok} once the service has started; needs no key.',
  },
};

/**
 * Operations that are not MCP tools: a key's secret is for its owner to handle, not an agent, and
 * the liveness probe is not part of the spec's API.
 */
export const NOT_OFFERED_AS_TOOLS: ReadonlySet<string> = new Set(['createApiKey', 'revokeApiKey', 'getHealth']);
