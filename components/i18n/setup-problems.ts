/**
 * Words for the problems of setting up: the connection form's key, address and pasted text, and
 * stored settings that cannot be read or saved. Apart from problems.ts because only the connection
 * form, the first run, the options page and the settings' problem callout say them: the popup's
 * first chunk carries neither this code nor these words (locales/more/, lib/i18n/messages.ts).
 */
import type { ImportProblem, ImportSource } from '@/lib/connection/import';
import type { KeyIssue } from '@/lib/connection/key-check';
import type { AddressProblem } from '@/lib/gateway/address';
import type { Words } from '@/lib/i18n/messages';
import type { SettingsReadProblem } from '@/lib/settings/migrations';
import type { SettingsSaveProblem } from '@/lib/settings/storage.adapter';

type Params = Record<string, string | number>;

export function keyIssueText(w: Words, issue: KeyIssue): string {
  return w.t(`key.${issue.problem}`, issue.params);
}

export function addressProblemText(w: Words, problem: AddressProblem, input: string, params: Params = {}): string {
  if (problem === 'too_long') return w.t('address.too_long', { length: Number(params.length), limit: Number(params.limit) });
  return w.t(`address.${problem}`, { address: input, ...params });
}

export function importSourceText(w: Words, source: ImportSource): string {
  return source.kind === 'app_link' ? w.t('import.source.app_link', { app: source.app }) : w.t(`import.source.${source.kind}`);
}

export function importProblemText(w: Words, problem: ImportProblem, params: Params): string {
  switch (problem) {
    case 'empty':
      return w.t('import.empty');
    case 'too_long':
      return w.t('import.too_long', { length: Number(params.length), limit: Number(params.limit) });
    case 'bad_json':
      return w.t('import.bad_json');
    case 'nothing_found':
      return w.t(`import.nothing_found.${(params.part ?? 'text') as 'text' | 'settings' | 'data' | 'json'}`);
    case 'bad_link_data':
      return w.t(`import.bad_link_data.${(params.part ?? 'data') as 'settings' | 'data'}`);
    case 'bad_address': {
      const address = String(params.address ?? '');
      const why = addressProblemText(w, String(params.addressProblem ?? 'malformed') as AddressProblem, address, params);
      return w.t('import.bad_address', { address, problem: why });
    }
  }
}

export function settingsReadText(w: Words, problem: SettingsReadProblem, params: Params): string {
  if (problem === 'unknown_version' && params.newer === 1) return w.t('settings.read.unknown_version_newer', params);
  return w.t(`settings.read.${problem}`, params);
}

export function settingsSaveText(w: Words, result: { problem: SettingsSaveProblem; params: Params }): string {
  return w.t(`settings.save.${result.problem}`, result.params);
}
