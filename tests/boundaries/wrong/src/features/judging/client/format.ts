export const clientFormat = 'format';
