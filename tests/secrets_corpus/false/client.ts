const apiKey = process.env.OPENAI_API_KEY ?? "";
const secretKey: string = config.get<string>("secretKey");
export async function call(token: string) {
  return fetch(url, { headers: { Authorization: `Bearer ${token}` } });
}
const clientSecret = await vault.read("oauth/client-secret");
