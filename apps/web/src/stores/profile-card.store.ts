import { createStore, useStore } from '../lib/create-store';
import { onLogout } from '../lib/login-session';

/** Whether the profile card of the open chat is shown. */
export const profileCard = createStore(false);
onLogout(() => profileCard.set(false));

export const openProfileCard = () => profileCard.set(true);
export const closeProfileCard = () => profileCard.set(false);
export const useProfileCardOpened = () => useStore(profileCard);
