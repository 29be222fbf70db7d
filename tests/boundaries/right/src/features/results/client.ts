export const resultsClient = ', ';
