// The staff panel's sections, each over the public API: statistics with 30-day charts (uPlot), the
// catalogue queue (approve, hide, remove, with a reason), users (find by id or phone; block and
// restrict; grant Plus and boosts: staff-grants.js) and the audit log. Text from the API is always
// set as text, never as markup.
import { showBilling, wireGrants } from "./staff-grants.js"
import uPlot from "./uplot.js"

const $ = (id) => document.getElementById(id)

/** An element with text and attributes (no markup parsing anywhere). */
const el = (tag, { text, className, attrs = {} } = {}, children = []) => {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className !== undefined) node.className = className
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value)
  for (const child of children) node.append(child)
  return node
}

const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

// ---- statistics -------------------------------------------------------------------------------

const FIGURES = [
  ["Users", (s) => s.users?.total],
  ["New today", (s) => s.users?.new_day],
  ["Online now", (s) => s.online?.now],
  ["Active today", (s) => s.active?.day],
  ["Active this month", (s) => s.active?.month],
  ["Messages today", (s) => s.messages?.day],
  ["Servers", (s) => s.guilds?.total],
  ["In the catalogue", (s) => s.guilds?.listed]
]
const SERIES = ["new_users", "messages", "active", "peak_online"]
const charts = new Map()
/** The last series drawn, kept to draw again in the other colour scheme. */
let drawn = null

/** Moscow days ("YYYY-MM-DD") as uPlot's x values: seconds at each day's UTC midnight. */
const dayTimes = (days) => days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000)

const drawChart = (key, days, values) => {
  const box = $(`chart-${key}`)
  charts.get(key)?.destroy()
  box.textContent = ""
  const width = Math.max(240, box.clientWidth)
  const options = {
    width,
    height: 160,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
    axes: [
      { stroke: css("--muted"), grid: { stroke: css("--line"), width: 0.5 }, ticks: { stroke: css("--line") } },
      {
        stroke: css("--muted"),
        grid: { stroke: css("--line"), width: 0.5 },
        ticks: { stroke: css("--line") },
        size: 48
      }
    ],
    series: [{}, { stroke: css("--accent"), width: 2, fill: `${css("--accent")}22`, points: { show: false } }]
  }
  charts.set(key, new uPlot(options, [dayTimes(days), values], box))
  box.setAttribute("role", "img")
  const total = values.reduce((a, b) => a + b, 0)
  box.setAttribute(
    "aria-label",
    `${days.length} days from ${days[0] ?? "?"} to ${days.at(-1) ?? "?"}; total ${total}, last day ${values.at(-1) ?? 0}`
  )
}

export const stats = async ({ api, fail }) => {
  const result = await api("GET", "/moderation/stats")
  if (result.status !== 200) return fail(result)
  const body = result.body
  $("stats-at").textContent = typeof body.at === "string" ? `as of ${body.at.replace("T", " ").slice(0, 16)} UTC` : ""
  const summary = $("stats-summary")
  summary.textContent = ""
  for (const [label, read] of FIGURES) {
    const value = read(body)
    summary.append(
      el("div", {}, [
        el("dt", { text: label }),
        el("dd", { text: value === undefined || value === null ? "—" : String(value) })
      ])
    )
  }
  const days = Array.isArray(body.series?.days) ? body.series.days : []
  drawn = { days, series: body.series ?? {} }
  drawAll()
}

const drawAll = () => {
  if (drawn === null) return
  const { days, series } = drawn
  for (const key of SERIES) drawChart(key, days, Array.isArray(series[key]) ? series[key] : days.map(() => 0))
}

// ---- the catalogue queue ----------------------------------------------------------------------

const STATE_NAMES = { listed: "Listed", auto_hidden: "Hidden", removed: "Removed" }
const ACTIONS = [
  ["listed", "Approve", ""],
  ["auto_hidden", "Hide", "secondary"],
  ["removed", "Remove", "danger"]
]

export const catalogue = async (context) => {
  const { api, fail } = context
  const state = $("queue-state").value
  const result = await api("GET", `/moderation/discovery?limit=100${state === "" ? "" : `&state=${state}`}`)
  if (result.status !== 200) return fail(result)
  const list = $("queue")
  list.textContent = ""
  const guilds = result.body.guilds ?? []
  $("queue-empty").hidden = guilds.length > 0
  for (const guild of guilds) {
    const reasonId = `reason-${guild.id}`
    const reason = el("input", { attrs: { id: reasonId, type: "text", maxlength: "200" } })
    const buttons = ACTIONS.map(([target, label, className]) => {
      const button = el("button", { text: label, className, attrs: { type: "button", "data-state": target } })
      button.disabled = guild.state === target
      button.addEventListener("click", () => setState(context, guild, target, reason.value.trim()))
      return button
    })
    list.append(
      el("li", { className: "card", attrs: { "data-guild": guild.id } }, [
        el("div", { className: "card-head" }, [
          el("strong", { text: guild.name }),
          el("span", { text: STATE_NAMES[guild.state] ?? guild.state, className: `badge ${guild.state}` }),
          el("span", {
            text: `${guild.reports} open reports · ${guild.approximate_member_count} members`,
            className: "hint"
          })
        ]),
        el("p", { text: guild.description, className: "hint" }),
        ...(guild.reason === null ? [] : [el("p", { text: `Reason: ${guild.reason}`, className: "reason" })]),
        el("div", { className: "field" }, [
          el("label", { text: "Reason for the change (shown to the owner)", attrs: { for: reasonId } }),
          reason
        ]),
        el("div", { className: "actions" }, buttons)
      ])
    )
  }
}

const setState = async (context, guild, state, reason) => {
  const result = await context.api("PATCH", `/moderation/discovery/${guild.id}`, {
    state,
    ...(reason === "" ? {} : { reason })
  })
  if (result.status !== 204) return context.fail(result)
  await catalogue(context)
  context.done(`${guild.name}: ${STATE_NAMES[state]}.`)
}

// ---- users ------------------------------------------------------------------------------------

let found = null
/** Clears the grant forms' results and complaints (they spoke of the account shown before). */
let resetGrants = () => {}

const term = (sanction, verb) =>
  sanction === null
    ? `Not ${verb}.`
    : `${verb[0].toUpperCase()}${verb.slice(1)} ${sanction.until === null ? "permanently" : `until ${sanction.until.replace("T", " ").slice(0, 16)} UTC`}: ${sanction.reason}`

const showUser = (user) => {
  if (found?.user.id !== user.user.id) resetGrants()
  found = user
  $("found").hidden = false
  $("found-name").textContent = user.user.global_name ?? user.user.username
  $("found-id").textContent = `@${user.user.username} · ${user.user.id}`
  $("found-facts").textContent =
    `${user.phone ?? "no phone"}${user.created_at === null ? "" : ` · registered ${user.created_at.slice(0, 10)}`}`
  $("found-block").textContent = term(user.block, "blocked")
  $("found-restriction").textContent = term(user.restriction, "restricted")
  showBilling(user)
}

const find = async (context, event) => {
  event?.preventDefault()
  const value = $("find").value.trim()
  if (value === "") return
  const query = /^\d{15,20}$/.test(value) ? `id=${value}` : `phone=${encodeURIComponent(value)}`
  const result = await context.api("GET", `/moderation/users?${query}`)
  if (result.status !== 200) {
    $("found").hidden = true
    return context.fail(result.status === 404 ? "No account has this id or phone." : result)
  }
  context.fail(null)
  showUser(result.body)
}

const SANCTION_BUTTONS = ["do-block", "do-unblock", "do-restrict", "do-unrestrict"]

/** The four sanction buttons stay disabled while one runs: a double click sends one request. */
const sanction = async (context, kind, lift) => {
  const buttons = SANCTION_BUTTONS.map($)
  if (found === null || buttons.some((button) => button.disabled)) return
  for (const button of buttons) button.disabled = true
  try {
    await sanctionOnce(context, kind, lift)
  } finally {
    for (const button of buttons) button.disabled = false
  }
}

const sanctionOnce = async (context, kind, lift) => {
  const path = `/moderation/users/${found.user.id}/${kind}`
  if (lift) {
    const result = await context.api("DELETE", path)
    if (result.status !== 204) return context.fail(result)
  } else {
    const reason = $("sanction-reason").value.trim()
    const days = $("sanction-days").value.trim()
    if (days !== "" && !/^\d{1,4}$/.test(days))
      return context.fail("The number of days must be a whole number (or empty for a permanent one).")
    const until = days === "" ? null : new Date(Date.now() + Number(days) * 86_400_000).toISOString()
    const result = await context.api("PUT", path, { reason, until })
    if (result.status !== 200) return context.fail(result)
  }
  const refreshed = await context.api("GET", `/moderation/users?id=${found.user.id}`)
  if (refreshed.status === 200) showUser(refreshed.body)
  context.done(
    `${found.user.username}: ${lift ? (kind === "block" ? "unblocked" : "restriction lifted") : kind === "block" ? "blocked" : "restricted"}.`
  )
}

// ---- the audit log ----------------------------------------------------------------------------

let oldest = null

export const audit = async ({ api, fail }, { reset }) => {
  if (reset) oldest = null
  const action = $("audit-action").value
  const target = $("audit-target").value.trim()
  const query = new URLSearchParams({ limit: "50" })
  if (action !== "") query.set("action", action)
  if (target !== "") query.set("target", target)
  if (oldest !== null) query.set("before", oldest)
  const result = await api("GET", `/moderation/audit-log?${query}`)
  if (result.status !== 200) return fail(result)
  const rows = $("audit-rows")
  if (reset) rows.textContent = ""
  const entries = result.body.entries ?? []
  for (const entry of entries) {
    const details = Object.entries(entry.details ?? {})
      .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") || "—" : (value ?? "—")}`)
      .join("; ")
    // Each cell names its column too: a narrow screen shows an entry as a stack of labelled lines.
    const cell = (label, text) => el("td", { text, attrs: { "data-label": label } })
    rows.append(
      el("tr", {}, [
        cell("When", entry.created_at.replace("T", " ").slice(0, 19)),
        cell("Who", entry.user_id),
        cell("Action", entry.action),
        cell("Target", entry.target_id === null ? entry.target_type : `${entry.target_type} ${entry.target_id}`),
        cell("Reason", entry.reason ?? ""),
        cell("Details", details)
      ])
    )
  }
  oldest = entries.at(-1)?.id ?? oldest
  $("audit-more").hidden = entries.length < 50
}

/** Hooks the sections' own controls up once. */
export const wire = (context) => {
  $("queue-state").addEventListener("change", () => catalogue(context))
  $("queue-reload").addEventListener("click", () => catalogue(context))
  $("find-form").addEventListener("submit", (event) => find(context, event))
  $("do-block").addEventListener("click", () => sanction(context, "block", false))
  $("do-unblock").addEventListener("click", () => sanction(context, "block", true))
  $("do-restrict").addEventListener("click", () => sanction(context, "restriction", false))
  $("do-unrestrict").addEventListener("click", () => sanction(context, "restriction", true))
  resetGrants = wireGrants(context, () => found, showUser)
  $("audit-form").addEventListener("submit", (event) => {
    event.preventDefault()
    audit(context, { reset: true })
  })
  $("audit-more").addEventListener("click", () => audit(context, { reset: false }))
  // The charts take their colours from the page's: draw them again when the scheme changes.
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", drawAll)
  let resize = null
  window.addEventListener("resize", () => {
    clearTimeout(resize)
    resize = setTimeout(() => {
      for (const [key, chart] of charts)
        chart.setSize({ width: Math.max(240, $(`chart-${key}`).clientWidth), height: 160 })
    }, 150)
  })
}
