import { browser } from 'wxt/browser';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';

/**
 * The stored settings cannot be read (damaged, or saved by a newer version). Instead of the
 * first-run form, whose Save would replace every profile, say what is wrong and where to
 * decide: the stored value stays as it is.
 */
export function SettingsProblem({ message }: { message: string }) {
  return (
    <Callout role="alert" tone="danger" label="Settings unreadable" title="Your settings could not be read" className="m-3">
      <p>{message}</p>
      <p className="callout-remedy">Nothing was changed. Update the extension if it is out of date, or open the settings page to start over.</p>
      <p><Button size="sm" onClick={() => void browser.runtime.openOptionsPage()}>Open the settings</Button></p>
    </Callout>
  );
}
