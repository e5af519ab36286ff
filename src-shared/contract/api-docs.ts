/** Where the service serves its OpenAPI document and the API reference page rendered from it. */
export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/v1/docs';
