// What every component spec of the dashboard shares: the DOM matchers, what jsdom lacks of a browser, rendering with a
// user who types and clicks, and the signed-in session.
import '@testing-library/jest-dom';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { session } from '../session';

// jsdom has <dialog> but not its modal methods: open and close it as a browser would, minus the focus trap.
if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

/** Renders `ui` for a user who types and clicks through `user`. */
export function renderForUser(ui: ReactElement): RenderResult & { user: UserEvent } {
  const user = userEvent.setup();
  return { user, ...render(ui) };
}

/** Signs the session in with an admin key, ReadWrite or ReadOnly. */
export function signInAs(permission: 'ReadWrite' | 'ReadOnly'): void {
  session.start('epa_component_spec', {
    tenantName: 'Acme',
    tenantSlug: 'acme',
    keyName: 'spec',
    readOnly: permission === 'ReadOnly',
  });
}
