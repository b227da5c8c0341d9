// Where a bot authorisation without redirect_uri ends: added, or cancelled (?error=access_denied).
const cancelled = new URLSearchParams(location.search).has("error")
document.getElementById(cancelled ? "cancelled" : "added").hidden = false
if (cancelled) {
  document.getElementById("title").textContent = "Not authorized"
  document.title = "Not authorized · Veche"
}
