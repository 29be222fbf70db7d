export const pool = 'pool';
