import { createDatabase } from './database.mjs';

/** Runs a scenario on a fresh database and drops it afterwards, whatever happens. */
export async function withDatabase(request, scenario) {
  const postgresUrl = request.infra?.postgresUrl;
  if (!postgresUrl) throw new Error('request.infra.postgresUrl is required');
  const database = await createDatabase(postgresUrl);
  try {
    return await scenario(database);
  } finally {
    await database.drop();
  }
}
