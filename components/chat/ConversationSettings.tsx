import { useContext, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { Dialog } from '@/components/ui/Dialog';
import { Field } from '@/components/ui/Field';
import { Input, Textarea } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { Switch } from '@/components/ui/Switch';
import { conversationStore } from '@/components/data';
import { toast } from '@/components/ui/Toast';
import { storeProblem } from '@/lib/conversations/problems';
import { useWords } from '@/components/i18n/words';
import type { Conversation, ConversationSettings, Message } from '@/lib/conversations/records';
import type { Profile } from '@/lib/settings/schema';
import { API_STYLES, type ApiStyle } from '@/lib/gateway/interfaces/names';
import type { ModelInfo } from '@/lib/gateway';
import { API_NAME } from '@/components/i18n/apiNames';
import { formatAmount } from '@/components/i18n/money';
import { PricesContext } from '@/components/stores/pricing';
import { useSettings } from '@/components/stores/settings';
import { priceOf, replyCost, type PriceList, type ReplyCost } from '@/lib/gateway/billing';

/** Tokens of the shown branch's replies, summed (prompt, completion, reasoning). */
/** What the replies shown cost in all (in the currency of the first one priced), estimated if any one is. */
export function conversationCost(branch: readonly Message[], prices: PriceList | null | undefined): ReplyCost | undefined {
  let total: ReplyCost | undefined;
  for (const m of branch) {
    if (m.role !== 'assistant') continue;
    const cost = replyCost(m.usage, priceOf(prices, m.model), m.imageRequest === undefined ? undefined : m.imageIds?.length ?? 0);
    if (cost === undefined || (total !== undefined && cost.currency !== total.currency)) continue;
    total = total === undefined ? { ...cost } : { amount: total.amount + cost.amount, currency: total.currency, estimated: total.estimated || cost.estimated };
  }
  return total;
}

export function usageTotals(branch: readonly Message[]): { prompt: number; completion: number; reasoning: number; replies: number } {
  const totals = { prompt: 0, completion: 0, reasoning: 0, replies: 0 };
  for (const m of branch) {
    if (m.role !== 'assistant' || m.usage === undefined) continue;
    totals.replies++;
    totals.prompt += m.usage.promptTokens ?? 0;
    totals.completion += m.usage.completionTokens ?? 0;
    totals.reasoning += m.usage.reasoningTokens ?? 0;
  }
  return totals;
}

function numberOrUndefined(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

/**
 * A conversation's own settings: its system prompt, temperature, max tokens and API interface
 * over the global ones (each left empty follows them), with its gateway and its token totals.
 */
export function ConversationSettingsDialog({ conversation, profile, branch, model, onClose }: { conversation: Conversation; profile: Profile; branch: readonly Message[]; model?: ModelInfo | undefined; onClose(): void }) {
  const w = useWords();
  // The interfaces the catalogue says the model is served through (all where it does not say).
  const offered: readonly ApiStyle[] = model?.apis ?? API_STYLES;
  const preferred = model?.preferredApi;
  const own = conversation.settings ?? {};
  const parsed = useSettings();
  const globalPrompt = parsed?.ok === true ? parsed.settings.chat.systemPrompt : '';
  // Following the global prompt, the box shows it as its placeholder; whatever is typed there is
  // this conversation's own. What the box held is kept while the switch is on, so switching it
  // off again gives it back (an own prompt left empty sends none).
  const [useGlobal, setUseGlobal] = useState(own.systemPrompt === undefined);
  const [prompt, setPrompt] = useState(own.systemPrompt ?? '');
  const [temperature, setTemperature] = useState(own.temperature === undefined ? '' : String(own.temperature));
  const [maxTokens, setMaxTokens] = useState(own.maxTokens === undefined ? '' : String(own.maxTokens));
  const [apiStyle, setApiStyle] = useState<'' | ApiStyle>(own.apiStyle ?? '');
  const t = numberOrUndefined(temperature);
  const m = numberOrUndefined(maxTokens);
  const temperatureBad = t !== undefined && (!Number.isFinite(t) || t < 0 || t > 2);
  const maxTokensBad = m !== undefined && (!Number.isInteger(m) || m <= 0);
  const totals = usageTotals(branch);
  const prices = useContext(PricesContext);
  const cost = conversationCost(branch, prices);

  const save = (): void => {
    if (temperatureBad || maxTokensBad) return;
    const settings: ConversationSettings = {};
    if (!useGlobal) settings.systemPrompt = prompt;
    if (t !== undefined) settings.temperature = t;
    if (m !== undefined) settings.maxTokens = m;
    if (apiStyle !== '') settings.apiStyle = apiStyle;
    if (own.presetId !== undefined) settings.presetId = own.presetId;
    // The "Tools" menu's choices are kept as they are (made there, not here).
    if (own.toolsOff !== undefined) settings.toolsOff = own.toolsOff;
    // An imported prompt awaiting review stays so unless the user wrote over it or went back to the
    // global one: changing the temperature here is not keeping it (ImportedPromptReview is).
    if (own.systemPromptReview !== undefined && settings.systemPrompt === own.systemPrompt) settings.systemPromptReview = own.systemPromptReview;
    conversationStore().setConversationSettings(conversation.id, Object.keys(settings).length === 0 ? undefined : settings)
      .catch((error: unknown) => toast(w.t('chat.settings.notSaved', { detail: storeProblem(error).detail }), 'error'));
    onClose();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => { if (!open) onClose(); }}
      title={w.t('chat.settings.title')}
      description={w.t('chat.settings.intro', { profile: profile.name, model: conversation.model })}
      footer={(
        <>
          <Button onClick={onClose}>{w.t('common.cancel')}</Button>
          <Button variant="primary" onClick={save} disabled={temperatureBad || maxTokensBad}>{w.t('chat.settings.save')}</Button>
        </>
      )}
    >
      <div className="flex flex-col gap-1.5">
        <Field
          label={w.t('chat.settings.systemPrompt')}
          aside={(
            <Field inline label={w.t('chat.settings.useGlobal')}>
              {(control) => <Switch {...control} checked={useGlobal} onCheckedChange={setUseGlobal} />}
            </Field>
          )}
          hint={useGlobal ? w.t('chat.settings.followsGlobal') : prompt.trim() === '' ? w.t('chat.settings.noPromptHint') : w.t('chat.settings.systemPromptHint')}
        >
          {(control) => (
            <Textarea
              {...control}
              rows={4}
              value={useGlobal ? '' : prompt}
              placeholder={useGlobal ? globalPrompt.trim() === '' ? w.t('chat.settings.noGlobalPrompt') : globalPrompt : undefined}
              onChange={(e) => {
                setPrompt(e.target.value);
                setUseGlobal(false);
              }}
            />
          )}
        </Field>
        {(useGlobal || prompt === '') && globalPrompt.trim() !== '' && (
          // A placeholder cannot be edited: this gives the global prompt to the box, to change for this conversation.
          <p><Button variant="link" size="sm" onClick={() => { setPrompt(globalPrompt); setUseGlobal(false); }}>{w.t('chat.settings.copyGlobal')}</Button></p>
        )}
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field label={w.t('chat.settings.temperature')} hint={w.t('chat.settings.emptyFollows')} error={temperatureBad ? w.t('chat.settings.temperatureBad') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" value={temperature} onChange={(e) => setTemperature(e.target.value)} />}
        </Field>
        <Field label={w.t('chat.settings.maxTokens')} hint={w.t('chat.settings.emptyFollows')} error={maxTokensBad ? w.t('chat.settings.maxTokensBad') : undefined}>
          {(control) => <Input {...control} inputMode="numeric" value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} />}
        </Field>
      </div>
      <Field label={w.t('chat.settings.api')}>
        {(control) => (
          <NativeSelect {...control} value={apiStyle} onChange={(e) => setApiStyle(e.target.value as '' | ApiStyle)}>
            <option value="">{preferred !== undefined ? w.t('chat.settings.apiModel', { api: w.t(API_NAME[preferred]) }) : w.t('chat.settings.apiProfile', { api: w.t(API_NAME[profile.apiStyle]) })}</option>
            {offered.map((api) => <option key={api} value={api}>{w.t(API_NAME[api])}</option>)}
          </NativeSelect>
        )}
      </Field>
      <section aria-label={w.t('chat.settings.usage')} className="rounded-md border border-line bg-surface px-3 py-2 text-xs text-muted">
        <p className="font-medium text-fg">{w.t('chat.settings.usage')}</p>
        <p>{w.t('chat.settings.usageLine', { replies: totals.replies, prompt: totals.prompt, completion: totals.completion, reasoning: totals.reasoning })}</p>
        {cost !== undefined && <p className="cost">{w.t(cost.estimated ? 'chat.settings.costLineEstimated' : 'chat.settings.costLine', { cost: formatAmount(w, cost.amount, cost.currency) })}</p>}
      </section>
    </Dialog>
  );
}
