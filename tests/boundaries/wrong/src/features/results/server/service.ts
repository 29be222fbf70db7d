export const service = 'service';
