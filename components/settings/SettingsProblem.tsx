import { browser } from 'wxt/browser';

/**
 * The stored settings cannot be read (damaged, or saved by a newer version). Instead of the
 * first-run form, whose Save would replace every profile, say what is wrong and where to
 * decide: the stored value stays as it is.
 */
export function SettingsProblem({ message }: { message: string }) {
  return (
    <div role="alert" aria-label="Settings unreadable" className="callout">
      <p className="callout-title">Your settings could not be read</p>
      <p>{message}</p>
      <p className="callout-remedy">Nothing was changed. Update the extension if it is out of date, or open the settings page to start over.</p>
      <p><button type="button" className="link" onClick={() => void browser.runtime.openOptionsPage()}>Open the settings</button></p>
    </div>
  );
}
