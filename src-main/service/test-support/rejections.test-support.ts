import { ProblemError } from '../errors';

/** What `p` rejected with; a promise that fulfils fails the test. */
export async function failureOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

/** The ProblemError `p` rejected with; any other outcome fails the test. */
export async function problemOf(p: Promise<unknown>): Promise<ProblemError> {
  const err = await failureOf(p);
  if (!(err instanceof ProblemError)) throw new Error(`expected a ProblemError, got ${String(err)}`);
  return err;
}
