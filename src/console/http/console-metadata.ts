import { SetMetadata } from '@nestjs/common';

export const CONSOLE_PUBLIC = 'console:public';
export const OPEN_TO_VIEWERS = 'console:openToViewers';

/** A console page that needs no session (sign-in, welcome links, assets). Its changes are still same-origin only. */
export const ConsolePublic = () => SetMetadata(CONSOLE_PUBLIC, true);

/**
 * A change a viewer may make too (signing out). Every other request that changes something (not GET or HEAD)
 * needs the admin role, so a page cannot forget the check.
 */
export const OpenToViewers = () => SetMetadata(OPEN_TO_VIEWERS, true);
