/** The part of ua-parser-js 1.x (MIT) we use; 1.x ships no types of its own. */
declare module 'ua-parser-js' {
  interface UAResult {
    browser: { name?: string; version?: string };
    os: { name?: string; version?: string };
    device: { type?: string; vendor?: string; model?: string };
  }
  class UAParser {
    constructor(ua?: string);
    getResult(): UAResult;
  }
  export default UAParser;
}
