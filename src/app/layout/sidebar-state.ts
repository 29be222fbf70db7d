/** Where the collapse of the sidebar is remembered (localStorage): read by the sidebar and the boot script. */
export const SIDEBAR_COLLAPSED_KEY = 'sidebar_collapsed';
