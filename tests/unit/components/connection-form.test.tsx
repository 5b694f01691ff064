// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionForm } from '@/components/settings/ConnectionForm';

const KEY = 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ';

describe('ConnectionForm', () => {
  it('shows the exact endpoint as the address is typed, for the chosen API style', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'gw.example.com/v1/v1/');
    expect(screen.getByLabelText('Endpoint')).toHaveTextContent('Requests go to https://gw.example.com/v1/chat/completions');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'API style' }), 'responses');
    expect(screen.getByLabelText('Endpoint')).toHaveTextContent('https://gw.example.com/v1/responses');
  });

  it('says what is wrong with the address and the key, each in its own words; Save waits', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'ftp://gw.example.com');
    expect(screen.getByRole('alert')).toHaveTextContent('must start with http:// or https://');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Gateway address' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'https://gw.example.com');
    await userEvent.type(screen.getByLabelText('API key'), 'sk-short');
    expect(screen.getByRole('alert')).toHaveTextContent('only 8 characters long');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('API key'));
    await userEvent.type(screen.getByLabelText('API key'), 'https://gw.example.com');
    expect(screen.getByRole('alert')).toHaveTextContent('This is an address, not a key');
  });

  it('paste to import fills the fields and says what it found, with the key masked', async () => {
    render(<ConnectionForm onSave={async () => undefined} />);
    await userEvent.click(screen.getByRole('textbox', { name: 'Paste to import' }));
    await userEvent.paste(`OPENAI_BASE_URL=https://gw.example.com/v1\nOPENAI_API_KEY=${KEY}`);
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByRole('status')).toHaveTextContent('Found in the OPENAI_* environment lines: address https://gw.example.com/v1, key sk-Ab…GHIJ.');
    expect(screen.getByRole('status')).not.toHaveTextContent(KEY);
    expect(screen.getByRole('textbox', { name: 'Gateway address' })).toHaveValue('https://gw.example.com/v1');
    expect(screen.getByLabelText('API key')).toHaveValue(KEY);
    expect(screen.getByLabelText('API key')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('Save asks for access to that one origin; refused, nothing is saved and it says why', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConnectionForm onSave={onSave} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'https://gw.example.com');
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The fake browser grants nothing: the form must not save silently without access.
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: without access to https://gw.example.com');
    expect(onSave).not.toHaveBeenCalled();
  });
});
