/** The part of Mozilla's addons-linter that scripts/check-release.ts uses (it ships no types). */
declare module 'addons-linter' {
  interface LinterMessage {
    code: string;
    message: string;
    file?: string;
  }
  export function createInstance(options: { config: Record<string, unknown>; runAsBinary: boolean }): {
    run(): Promise<{ errors: LinterMessage[]; warnings: LinterMessage[]; notices: LinterMessage[] }>;
  };
}
