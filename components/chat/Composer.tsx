import { useState, type FormEvent, type KeyboardEvent } from 'react';

interface ComposerProps {
  streaming: boolean;
  disabled?: boolean;
  onSend(text: string): Promise<boolean>;
  onStop(): void;
}

/** Enter sends, Shift+Enter starts a new line; Stop while a reply streams. */
export function Composer({ streaming, disabled = false, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);

  const send = async (): Promise<void> => {
    if (text.trim() === '' || streaming || sending) return;
    setSending(true);
    const sent = await onSend(text);
    setSending(false);
    if (sent) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void send();
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      <textarea
        aria-label="Message"
        placeholder="Ask anything (Enter sends, Shift+Enter for a new line)"
        value={text}
        rows={2}
        autoFocus
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {streaming
        ? <button type="button" onClick={onStop}>Stop</button>
        : <button type="submit" disabled={disabled || sending || text.trim() === ''}>Send</button>}
    </form>
  );
}
