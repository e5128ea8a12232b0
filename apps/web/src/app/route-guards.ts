import { redirect, type LoaderFunctionArgs } from 'react-router';
import { readToken } from '../lib/storage';
import { logoutInPlace } from '../lib/login-session';

/** Any path but /login, /auth and /ban-page needs a stored token. */
export function requireToken({ request }: LoaderFunctionArgs) {
  if (readToken()) return null;
  const url = new URL(request.url);
  const path = url.pathname + url.search;
  throw redirect(`/login?redirect=${encodeURIComponent(path)}`);
}

/**
 * Visiting /login logs out first, without a page reload. Only a signed-in visit logs out:
 * a language or theme picked on the login screen itself survives reloading it.
 */
export function logoutOnLogin() {
  if (readToken()) logoutInPlace();
  return null;
}
