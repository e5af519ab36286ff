// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthMethods } from '../../../src-shared/contract/oidc-operations';
import { useAuth } from '../../state/auth';
import { takeReturnHash } from '../../state/oidc-return';
import { LoginPage } from './LoginPage';

/**
 * The login page's ways in, as the service's `GET /v1/auth/methods` states them: the provider's
 * button, the password form unless turned off, and what it says when the provider is down or a
 * sign-in came back refused. The store's state is set as init() sets it from the service's answers
 * (the whole flow against a real provider is e2e/web/oidc.spec.ts).
 */

const initial = useAuth.getState();
beforeEach(() => useAuth.setState({ ...initial, phase: 'signed-out' }));
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const dex = (over: Partial<NonNullable<AuthMethods['oidc']>> = {}): AuthMethods['oidc'] => ({
  name: 'Dex',
  loginPath: '/v1/auth/oidc/login',
  available: true,
  ...over,
});

const show = (methods: AuthMethods | null, extra: Partial<ReturnType<typeof useAuth.getState>> = {}) => {
  useAuth.setState({ methods, ...extra });
  render(<LoginPage />);
};

describe('the login page', () => {
  it('offers the password form alone before the service said more, or without a provider', () => {
    show(null);
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
    cleanup();
    show({ password: true, oidc: null });
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
  });

  it('shows "Sign in with {name}", a link to the service that comes back here, beside the password form', () => {
    show({ password: true, oidc: dex() });
    const link = screen.getByRole('link', { name: 'Sign in with Dex' });
    expect(link.getAttribute('href')).toBe('/v1/auth/oidc/login?returnTo=%2F');
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByText('or with a Skiff account')).toBeTruthy();
  });

  it('with --oidc-only, shows no password form', () => {
    show({ password: false, oidc: dex() });
    expect(screen.getByRole('link', { name: 'Sign in with Dex' })).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
  });

  it('says when the provider cannot be reached, and keeps the password form for administrators even with --oidc-only', () => {
    show({ password: false, oidc: dex({ available: false, detail: 'connection refused' }) });
    expect(screen.getByTestId('oidc-unavailable').textContent).toBe(
      'Dex cannot be reached right now (connection refused); administrators can still sign in with a password.',
    );
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });

  it('remembers the route when the sign-in leaves, for the way back', () => {
    window.history.replaceState(null, '', '/#/w/default/c/demo');
    show({ password: true, oidc: dex() });
    const link = screen.getByRole('link', { name: 'Sign in with Dex' });
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    expect(takeReturnHash()).toBe('#/w/default/c/demo');
    window.history.replaceState(null, '', '/');
  });

  it('words a refused sign-in with the provider it came from', () => {
    show({ password: false, oidc: dex() }, { oidcError: 'oidc_state_mismatch' });
    expect(screen.getByTestId('oidc-error').textContent).toContain('was not started in this browser');
    cleanup();
    show(null, { oidcError: 'oidc_denied' });
    expect(screen.getByTestId('oidc-error').textContent).toContain(
      'The identity provider did not sign you in',
    );
  });

  it('shows a failed exchange even with no password form', () => {
    show({ password: false, oidc: dex() }, { loginError: 'The sign-in with Dex could not be finished.' });
    expect(screen.getByRole('alert').textContent).toBe('The sign-in with Dex could not be finished.');
  });
});
