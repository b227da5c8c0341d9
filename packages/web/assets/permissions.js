// The guild permissions a bot can be given, at the mirrored platform's bit positions (the same as
// @veche/guilds' Permissions.Flags), in plain words for the consent page.

/** `[bit, words]`, in the order the page lists them. */
export const PERMISSIONS = [
  [3n, "Administrator: every permission, and it ignores channel settings"],
  [5n, "Manage the server (name, icon, settings)"],
  [28n, "Manage roles"],
  [4n, "Manage channels"],
  [1n, "Kick members"],
  [2n, "Ban members"],
  [40n, "Time out members"],
  [7n, "View the audit log"],
  [19n, "View server insights"],
  [29n, "Manage webhooks"],
  [30n, "Manage emoji and stickers"],
  [43n, "Create emoji and stickers"],
  [33n, "Manage events"],
  [44n, "Create events"],
  [27n, "Change other members' nicknames"],
  [26n, "Change its own nickname"],
  [0n, "Create invites"],
  [10n, "See channels"],
  [11n, "Send messages"],
  [38n, "Send messages in threads"],
  [35n, "Create public threads"],
  [36n, "Create private threads"],
  [34n, "Manage threads"],
  [12n, "Send text-to-speech messages"],
  [13n, "Manage messages (delete or pin others' messages)"],
  [14n, "Embed links"],
  [15n, "Attach files"],
  [16n, "Read message history"],
  [17n, "Mention @everyone, @here and all roles"],
  [6n, "Add reactions"],
  [18n, "Use emoji from other servers"],
  [37n, "Use stickers from other servers"],
  [49n, "Create polls"],
  [46n, "Send voice messages"],
  [31n, "Use application commands"],
  [50n, "Use external apps"],
  [39n, "Use activities"],
  [20n, "Connect to voice channels"],
  [21n, "Speak in voice channels"],
  [9n, "Stream video"],
  [25n, "Use voice activity"],
  [8n, "Priority speaker"],
  [22n, "Mute members in voice"],
  [23n, "Deafen members in voice"],
  [24n, "Move members between voice channels"],
  [32n, "Request to speak"],
  [42n, "Use the soundboard"],
  [45n, "Use sounds from other servers"],
  [41n, "View creator monetisation analytics"]
].map(([shift, words]) => ({ bit: 1n << shift, words }))

const ADMINISTRATOR = 1n << 3n

/** A `permissions` value from the address as a bit set; 0 when absent or not a decimal number. */
export const parsePermissions = (text) => (typeof text === "string" && /^\d{1,20}$/.test(text) ? BigInt(text) : 0n)

/** Whether someone holding `held` (a decimal string from the API) can grant `bit`. */
export const canGrant = (held, bit) => {
  const bits = parsePermissions(held)
  return (bits & ADMINISTRATOR) === ADMINISTRATOR || (bits & bit) === bit
}
