// Passkeys in the browser (WebAuthn): the server's options (JSON, binary fields in base64url) made
// into what navigator.credentials takes, and the browser's answer back into JSON
// (docs/accounts.md, "Passkeys"). Offered only where the browser has them.
const toBytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)), (c) => c.charCodeAt(0));
const toText = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const offered = typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { ok: response.ok, data: await response.json() };
}

function credentialJSON(credential) {
  const response = credential.response;
  const json = { id: credential.id, rawId: toText(credential.rawId), type: credential.type, response: { clientDataJSON: toText(response.clientDataJSON) } };
  if (response.attestationObject) json.response.attestationObject = toText(response.attestationObject);
  if (response.authenticatorData) json.response.authenticatorData = toText(response.authenticatorData);
  if (response.signature) json.response.signature = toText(response.signature);
  if (response.userHandle) json.response.userHandle = toText(response.userHandle);
  return json;
}

// A new passkey for the signed-in account: {ok, data} of the server's answer ({ok: false, data:
// null} when the person cancelled).
export async function addPasskey() {
  const asked = await post("/api/me/passkeys/options", {});
  if (!asked.ok) return asked;
  const options = asked.data.options;
  const publicKey = { ...options, challenge: toBytes(options.challenge), user: { ...options.user, id: toBytes(options.user.id) },
                      excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
  let credential;
  try { credential = await navigator.credentials.create({ publicKey }); } catch (e) { return { ok: false, data: null }; }
  return post("/api/me/passkeys", { ceremony: asked.data.ceremony, credential: credentialJSON(credential) });
}

// A sign-in with one of this site's passkeys (the browser lets its person choose): {ok, data}.
export async function signInWithPasskey() {
  const asked = await post("/api/session/passkey/options", {});
  if (!asked.ok) return asked;
  const options = asked.data.options;
  const publicKey = { ...options, challenge: toBytes(options.challenge),
                      allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
  let credential;
  try { credential = await navigator.credentials.get({ publicKey }); } catch (e) { return { ok: false, data: null }; }
  return post("/api/session/passkey", { ceremony: asked.data.ceremony, credential: credentialJSON(credential) });
}
