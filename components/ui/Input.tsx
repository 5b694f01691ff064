import type { InputHTMLAttributes, Ref, TextareaHTMLAttributes } from 'react';
import { cx } from './cx';

export const fieldClass = cx(
  'w-full min-w-0 rounded-md border border-line bg-raised px-3 text-sm text-fg placeholder:text-muted',
  'transition-colors hover:border-line-strong focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring focus-visible:border-ring',
  'disabled:opacity-60 disabled:cursor-not-allowed aria-invalid:border-danger',
);

export function Input({ className, ref, ...rest }: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input ref={ref} className={cx(fieldClass, 'h-9', className)} {...rest} />;
}

export function Textarea({ className, ref, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return <textarea ref={ref} className={cx(fieldClass, 'py-2 leading-relaxed', className)} {...rest} />;
}
