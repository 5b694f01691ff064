import { Switch as S } from 'radix-ui';
import type { FieldControlProps } from './Field';

/** On or off, for a setting that applies at once. Label it with a Field (inline). */
export function Switch({ checked, onCheckedChange, disabled, ...control }: Partial<FieldControlProps> & { checked: boolean; onCheckedChange(checked: boolean): void; disabled?: boolean }) {
  return (
    <S.Root
      checked={checked}
      onCheckedChange={onCheckedChange}
      disabled={disabled}
      className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border border-line-strong bg-surface-2 transition-colors data-[state=checked]:border-accent data-[state=checked]:bg-accent disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      {...control}
    >
      <S.Thumb className="block size-3.5 translate-x-0.5 rounded-full bg-fg shadow transition-transform data-[state=checked]:translate-x-[18px] data-[state=checked]:bg-accent-fg" />
    </S.Root>
  );
}
