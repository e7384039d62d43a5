import { RESULT_SCHEMA_VERSION } from './result-types.js';

const nonNegInt = { type: 'integer', minimum: 0 } as const;
const numberArray = { type: 'array', items: { type: 'number' } } as const;

/**
 * The `DiscoveryResult` contract as JSON Schema (draft 2020-12). `result-types.ts` mirrors it;
 * the tests validate typed fixtures of every shape against it so the two cannot drift apart.
 */
export const discoveryResultSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://fairbench.dev/schemas/discovery-result/${RESULT_SCHEMA_VERSION}.json`,
  title: 'DiscoveryResult',
  type: 'object',
  additionalProperties: false,
  required: [
    'schemaVersion',
    'method',
    'dataset',
    'model',
    'seed',
    'budget',
    'run',
    'metrics',
    'findings',
    'extras',
  ],
  properties: {
    schemaVersion: { type: 'string', pattern: '^1\\.\\d+\\.\\d+$' },
    method: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'version', 'kind', 'access', 'options'],
      properties: {
        id: { type: 'string', minLength: 1 },
        version: { type: 'string', minLength: 1 },
        kind: { enum: ['individual', 'subgroup'] },
        access: { enum: ['black-box', 'white-box', 'data-only'] },
        options: { type: 'object' },
      },
    },
    dataset: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'fingerprint', 'rows', 'attributes', 'protected', 'outcome'],
      properties: {
        name: { type: ['string', 'null'] },
        fingerprint: { type: 'string', pattern: '^[0-9a-f]{16}$' },
        rows: nonNegInt,
        attributes: { type: 'array', items: { type: 'string' }, minItems: 1 },
        protected: { type: 'array', items: { type: 'string' }, minItems: 1 },
        outcome: { type: 'string' },
      },
    },
    model: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['description', 'nFeatures', 'nClasses'],
          properties: {
            description: { type: ['string', 'null'] },
            nFeatures: { type: 'integer', minimum: 1 },
            nClasses: { type: 'integer', minimum: 2 },
          },
        },
      ],
    },
    seed: { type: ['integer', 'string'] },
    budget: {
      type: 'object',
      additionalProperties: false,
      required: ['maxSeconds', 'maxTested', 'maxQueries'],
      properties: {
        maxSeconds: { type: ['number', 'null'], exclusiveMinimum: 0 },
        maxTested: { type: ['integer', 'null'], minimum: 1 },
        maxQueries: { type: ['integer', 'null'], minimum: 1 },
        // Optional for results written before it existed; findings.pairs holds at most this many.
        maxPairs: { type: ['integer', 'null'], minimum: 1 },
      },
    },
    run: {
      type: 'object',
      additionalProperties: false,
      required: ['startedAt', 'wallSeconds', 'stopReason', 'aborted'],
      properties: {
        startedAt: { type: 'string', format: 'date-time' },
        wallSeconds: { type: 'number', minimum: 0 },
        stopReason: { enum: ['completed', 'time-budget', 'tested-budget', 'query-budget', 'aborted'] },
        aborted: { type: 'boolean' },
      },
    },
    metrics: {
      type: 'object',
      additionalProperties: false,
      required: ['tsn', 'dsn', 'sur', 'dss', 'pairs', 'queries', 'distinctQueries'],
      properties: {
        tsn: nonNegInt,
        dsn: nonNegInt,
        // DSN / TSN: overlapping subgroups can outnumber the rows (at most 1 for pairs: validate-result.ts).
        sur: { type: 'number', minimum: 0 },
        dss: { type: ['number', 'null'], minimum: 0 },
        pairs: nonNegInt,
        queries: nonNegInt,
        distinctQueries: nonNegInt,
      },
    },
    findings: {
      oneOf: [{ $ref: '#/$defs/individualFindings' }, { $ref: '#/$defs/subgroupFindings' }],
    },
    extras: { type: 'object' },
  },
  $defs: {
    individualFindings: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'pairs', 'byAttributeValue'],
      properties: {
        kind: { const: 'individual' },
        pairs: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: [
              'caseId',
              'sample',
              'counterfactual',
              'sampleOutcome',
              'counterfactualOutcome',
              'changed',
            ],
            properties: {
              caseId: nonNegInt,
              sample: numberArray,
              counterfactual: numberArray,
              sampleOutcome: nonNegInt,
              counterfactualOutcome: nonNegInt,
              changed: { type: 'array', items: { type: 'string' }, minItems: 1 },
            },
          },
        },
        byAttributeValue: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['attribute', 'value', 'label', 'dsn', 'pairs'],
            properties: {
              attribute: { type: 'string' },
              value: { type: 'number' },
              label: { type: 'string' },
              dsn: nonNegInt,
              pairs: nonNegInt,
            },
          },
        },
      },
    },
    subgroupFindings: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'subgroups'],
      properties: {
        kind: { const: 'subgroup' },
        subgroups: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['rank', 'conditions', 'size', 'score', 'effect', 'pValue', 'direction', 'details'],
            properties: {
              rank: { type: 'integer', minimum: 1 },
              conditions: { type: 'array', items: { $ref: '#/$defs/condition' } },
              size: nonNegInt,
              score: { type: 'number' },
              effect: { type: ['number', 'null'] },
              pValue: { type: ['number', 'null'], minimum: 0, maximum: 1 },
              direction: { enum: ['higher', 'lower', null] },
              details: {
                type: 'object',
                additionalProperties: { type: ['number', 'string', 'boolean', 'null'] },
              },
              members: { type: 'array', items: nonNegInt },
              rule: { type: 'string' },
            },
          },
        },
      },
    },
    condition: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['attribute', 'values'],
          properties: { attribute: { type: 'string' }, values: { ...numberArray, minItems: 1 } },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['attribute', 'min', 'max', 'maxInclusive'],
          properties: {
            attribute: { type: 'string' },
            min: { type: 'number' },
            max: { type: 'number' },
            maxInclusive: { type: 'boolean' },
          },
        },
      ],
    },
  },
} as const;
