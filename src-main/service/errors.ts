import {
  PROBLEM_CODES,
  PROBLEM_TYPE_BASE,
  type Problem,
  type ProblemCode,
} from '../../src-shared/contract/problem';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The one error type operations throw; every transport turns it into a problem+json body. */
export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ProblemCode,
    detail: string,
    extensions: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.code = code;
    this.status = PROBLEM_CODES[code];
    this.extensions = extensions;
    this.headers = headers;
  }

  toProblem(): Problem {
    return {
      type: `${PROBLEM_TYPE_BASE}${this.code.replace(/_/g, '-')}`,
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.message,
      code: this.code,
      ...this.extensions,
    };
  }
}

export const problem = (code: ProblemCode, detail: string, extensions?: Record<string, unknown>) =>
  new ProblemError(code, detail, extensions);
