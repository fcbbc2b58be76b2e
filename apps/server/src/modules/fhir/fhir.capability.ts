import { FHIR_RESOURCES } from './fhir.resources.js';

/** The CapabilityStatement of `GET /fhir/R4/metadata`, generated from the router's own table. */
/** When this statement was last changed (with the table). */
const STATEMENT_DATE = '2026-12-07';

export function capabilityStatement(opts: { version: string; baseUrl: string }) {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: STATEMENT_DATE,
    publisher: 'Greensen',
    kind: 'instance',
    software: { name: 'Greensen', version: opts.version },
    implementation: { description: 'Greensen FHIR R4 API', url: opts.baseUrl },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        security: {
          service: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                  code: 'OAuth',
                },
              ],
            },
          ],
          description:
            'Bearer access token of a Greensen sign-in, and the Hospital-ID header naming the hospital.',
        },
        resource: FHIR_RESOURCES.map((r) => ({
          type: r.type,
          interaction: r.interactions.map((code) => ({ code })),
          ...(r.interactions.includes('update') ? { updateCreate: false } : {}),
          ...(r.versionedUpdate ? { versioning: 'versioned-update', readHistory: false } : {}),
          ...(r.conditionalCreate ? { conditionalCreate: true } : {}),
          ...(r.includes.length ? { searchInclude: [...r.includes] } : {}),
          ...(r.search.length
            ? {
                searchParam: r.search.map((p) => ({
                  name: p.name,
                  type: p.type,
                  documentation: p.documentation,
                })),
              }
            : {}),
          ...(r.operations?.length ? { operation: r.operations.map((o) => ({ ...o })) } : {}),
        })),
      },
    ],
  };
}
