import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Ruleset, Spectral } from '@stoplight/spectral-core';
import parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** Spectral's severities (DiagnosticSeverity). */
const ERROR = 0;
const WARNING = 1;

interface Operation {
  key: string;
  operation: any;
}

/** The quality gate of GET /v1/openapi.json: what generators and linters need from it. */
describe('the OpenAPI document', () => {
  let app: TestApp;
  let document: any;
  let source: string;
  let operations: Operation[];

  beforeAll(async () => {
    app = await startTestApp();
    const response = await app.api().get('/v1/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
    source = JSON.stringify(document, null, 2);
    operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
  });
  afterAll(() => app.close());

  const component = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')];

  it("has no error by Redocly's recommended rules", async () => {
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    for (const problem of problems) console.log(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer})`);
    expect(problems.filter((problem) => problem.severity === 'error').map((problem) => problem.message)).toEqual([]);
  });

  it("has no error and fewer than 10 warnings by Spectral's oas ruleset", async () => {
    const spectral = new Spectral();
    spectral.setRuleset(new Ruleset(oas));
    const results = await spectral.run(new Document(source, parsers.Json, 'openapi.json'));
    for (const result of results) console.log(`spectral ${result.severity} ${result.code}: ${result.message} (${result.path.join('.')})`);
    expect(results.filter((result) => result.severity === ERROR).map((result) => result.message)).toEqual([]);
    expect(results.filter((result) => result.severity === WARNING).length).toBeLessThan(10);
  });

  it('names the resources, request bodies and the problem as components', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Site', 'SiteList', 'CreateSiteInput', 'UpdateSiteInput', 'Meter', 'Invoice', 'PaymentRun', 'Problem', 'CreatePaymentsBatchInput']),
    );
    const unnamed = operations.flatMap(({ key, operation }) => {
      const json = [
        ...(operation.requestBody ? [['request body', operation.requestBody.content['application/json']]] : []),
        ...Object.entries(operation.responses as Record<string, any>)
          .filter(([status, response]) => status.startsWith('2') && response.content?.['application/json'])
          .map(([status, response]) => [status, response.content['application/json']]),
      ];
      return json.filter(([, media]) => !media.schema.$ref?.startsWith('#/components/schemas/')).map(([what]) => `${key} ${what}`);
    });
    expect(unnamed).toEqual([]);
    const refs = [...source.matchAll(/"\$ref": "([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.filter((ref) => !component(ref))).toEqual([]);
  });

  it('documents the text/csv body of the measurement upload', () => {
    const csv = document.paths['/v1/measurements'].post.requestBody.content['text/csv'];
    expect(csv.schema.type).toBe('string');
    expect(csv.schema.description).toContain('meterId,timestamp,value');
  });

  it('leaves the read-only fields out of every PATCH body', () => {
    const patches = operations.filter(({ key }) => key.startsWith('PATCH '));
    expect(patches.length).toBeGreaterThan(10);
    for (const { key, operation } of patches) {
      const properties = Object.keys(component(operation.requestBody.content['application/json'].schema.$ref).properties);
      expect(properties, key).not.toContain('id');
      expect(properties, key).not.toContain('createdAt');
      expect(properties, key).not.toContain('updatedAt');
    }
  });

  it('formats instants and calendar dates, states no bounds an integer does not have, and the defaults of query integers', () => {
    const { Site, Invoice, Meter, CreateSiteInput } = document.components.schemas;
    expect(Site.properties.createdAt.format).toBe('date-time');
    expect(Site.properties.allocationKeyValidFrom.format).toBe('date');
    expect(Invoice.properties.issuedAt.format).toBe('date-time');
    expect(Invoice.properties.periodStart.format).toBe('date');
    expect(Meter.properties.startDate.format).toBe('date-time');
    expect(JSON.stringify(CreateSiteInput.properties.allocationKeyValidFrom)).toContain('"format":"date"');
    expect(source).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const limit = document.paths['/v1/sites'].get.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
    const offset = document.paths['/v1/sites'].get.parameters.find((parameter: { name: string }) => parameter.name === 'offset');
    expect(offset.schema).toEqual({ type: 'integer', minimum: 0, default: 0 });
  });

  it('shows the examples of request fields whose values are normalised', () => {
    const { properties } = document.components.schemas.CreateCustomerInput;
    expect(properties.vatId.examples).toEqual(['DE136695976']);
    expect(properties.buyerReference.examples).toEqual(['04011000-12345-03']);
    expect(document.components.schemas.UpdateCustomerInput.properties.buyerReference.examples).toEqual(['04011000-12345-03']);
  });

  it('describes every tag and operation, with clean summaries, and carries the licence of package.json', () => {
    const used = new Set(operations.map(({ operation }) => operation.tags[0]));
    const tags = document.tags as { name: string; description: string }[];
    expect(tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    expect(tags.filter((tag) => !tag.description)).toEqual([]);
    expect(operations.filter(({ operation }) => !operation.description).map(({ key }) => key)).toEqual([]);
    expect(document.paths['/v1/electricity-products'].post.summary).toBe('Create an electricity product');
    expect(document.paths['/v1/electricity-products'].get.summary).toBe('List electricity products');
    const license = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).license;
    expect(document.info.license.identifier).toBe(license);
    expect(document.info.contact).toBeDefined();
  });
});
