import { useEffect } from 'react';
import { useAppSettings } from '../../state/app-settings';
import { useTheme } from '../../state/theme';
import { Loading } from '../common/Problem';
import { KubeconfigSection } from './KubeconfigSection';
import { MonitoringSection } from './MonitoringSection';
import { ServiceSection } from './ServiceSection';
import { WorkspacesSection } from './WorkspacesSection';
import './settings.css';

function AppearanceSection() {
  const theme = useTheme();
  return (
    <section className="panel" aria-labelledby="look-title">
      <h2 id="look-title">Appearance</h2>
      <fieldset className="plain-fieldset inline-checks">
        <legend className="sr-only">Theme</legend>
        {(['system', 'light', 'dark'] as const).map((p) => (
          <label key={p}>
            <input type="radio" name="theme" checked={theme.preference === p} onChange={() => theme.set(p)} />{' '}
            {p}
          </label>
        ))}
      </fieldset>
    </section>
  );
}

/** Settings: works with every cluster unreachable, since none of it asks a cluster. */
export function SettingsView() {
  const { settings, error, load } = useAppSettings();
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="page" data-testid="settings-view">
      <h1 className="page-title">Settings</h1>
      {error && (
        <p className="notice notice-error" role="alert">
          Application settings could not be read: {error}
        </p>
      )}
      {!settings && !error && <Loading label="Loading settings…" />}
      <MonitoringSection />
      <WorkspacesSection />
      <KubeconfigSection />
      <ServiceSection />
      <AppearanceSection />
    </div>
  );
}
