import { z } from 'zod';
import { RunEvent, SubAgentStepEvent } from '../domain/run/run-event';
import { API_ERROR_STATUS, type ApiErrorCode } from './api-error';
import type { ApiRoute } from './api-route';

type JsonSchema = Record<string, unknown>;

/** JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) of a zod schema: what a client sends, or what it receives. */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const ErrorBody = z.object({
  error: z.object({
    code: z.enum(Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]]),
    message: z.string(),
    issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
  }),
});

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: the issues name each bad field by its path',
  401: 'Missing, invalid or expired token (WWW-Authenticate: Bearer)',
  403: 'Your roles do not allow this',
  404: "No such run, or not your tenant's (the same answer)",
  409: 'The run refused: its reason is the message',
  413: 'The body is over the size limit',
  503: 'A worker or Temporal could not answer; retry',
};

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header'): JsonSchema[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || !field.safeParse(undefined).success,
    schema: jsonSchema(field, 'input'),
  }));
}

const errorResponses = (statuses: readonly number[]): Record<string, JsonSchema> =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: ERROR_TEXT[status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );

const success = (description: string, schema: z.ZodType): JsonSchema => ({
  description,
  content: { 'application/json': { schema: jsonSchema(schema, 'output') } },
});

const openApiPath = (url: string): string => url.replace(/:([A-Za-z]+)/g, '{$1}');

/**
 * The OpenAPI 3.1 document of the API, generated from the route table's own zod schemas (request
 * bodies as clients write them, responses as the server sends them) plus the event stream.
 */
export function openApiDocument(routes: readonly ApiRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const operation: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.public ? { security: [] } : {}),
      parameters: [
        ...parameters(route.params, 'path'),
        ...parameters(route.query, 'query'),
        ...parameters(route.headers, 'header'),
      ],
      ...(route.body
        ? {
            requestBody: {
              required: !route.optionalBody,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [String(route.response.status)]: success(route.response.description, route.response.schema),
        ...(route.response.alsoAnswers
          ? {
              [String(route.response.alsoAnswers.status)]: success(
                route.response.alsoAnswers.description,
                route.response.schema,
              ),
            }
          : {}),
        ...errorResponses(route.errors),
      },
    };
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operation;
  }
  paths['/v1/runs/{id}/events'] = {
    get: {
      operationId: 'runEvents',
      summary:
        'Server-Sent Events of a run: steps (id = step number), status, approvals, sub-agents, model text, end; resumable with Last-Event-ID or ?after=',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        {
          name: 'view',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['end_user', 'developer', 'auditor'] },
        },
        { name: 'after', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'details', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
        {
          name: 'subAgentSteps',
          in: 'query',
          required: false,
          description: "false: do not follow the run's running sub-agents (no sub_agent_step events)",
          schema: { type: 'string', enum: ['true', 'false'] },
        },
        { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description:
            "text/event-stream; each message's data is a RunEvent in the caller's view, or a running sub-agent's step (sub_agent_step) in the caller's view of that sub-agent",
          content: {
            'text/event-stream': {
              schema: jsonSchema(z.discriminatedUnion('type', [...RunEvent.options, SubAgentStepEvent]), 'output'),
            },
          },
        },
        ...errorResponses([400, 401, 403, 404]),
      },
    },
  };
  paths['/v1/openapi.json'] = {
    get: {
      operationId: 'openApi',
      summary: 'This document; no token needed',
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Thoughtline',
      version,
      description:
        'Start, follow and decide on durable agent runs. Every /v1 route but health and this document needs Authorization: Bearer <token>.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: jsonSchema(ErrorBody, 'output') },
    },
    paths,
  };
}
