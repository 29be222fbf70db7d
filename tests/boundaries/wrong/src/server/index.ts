export const server = 'server';
