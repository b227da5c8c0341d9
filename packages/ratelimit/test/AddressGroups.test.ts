import { describe, expect, it } from "@effect/vitest"
import * as AddressGroups from "../src/AddressGroups.ts"

describe("AddressGroups", () => {
  it("IPv4 counts as itself, with no wider network", () => {
    expect(AddressGroups.of("198.51.100.7")).toEqual({ narrow: "198.51.100.7", network: undefined })
  })

  it("IPv6 counts by its /64 and its /48, however it is written", () => {
    const groups = AddressGroups.of("2001:DB8:0001:0002:aaaa:bbbb:cccc:dddd")
    expect(groups).toEqual({ narrow: "2001:db8:1:2::/64", network: "2001:db8:1::/48" })
    expect(AddressGroups.of("2001:db8:1:2::1")).toEqual(groups)
    expect(AddressGroups.of("2001:db8:1:2::1%eth0")).toEqual(groups)
    expect(AddressGroups.of("::1")).toEqual({ narrow: "0:0:0:0::/64", network: "0:0:0::/48" })
  })

  it("IPv4-mapped IPv6 is the IPv4 address, dotted or in hex", () => {
    expect(AddressGroups.of("::ffff:198.51.100.7").narrow).toBe("198.51.100.7")
    expect(AddressGroups.of("::ffff:c633:6407").narrow).toBe("198.51.100.7")
    expect(AddressGroups.of("::ffff:198.51.100.7").network).toBeUndefined()
  })

  it("anything else counts as itself", () => {
    for (const text of ["unknown", "1:2:3", "1::2::3", "::ffff:300.1.1.1", "g::1", "1:2:3:4:5:6:7:8:9"]) {
      expect(AddressGroups.of(text)).toEqual({ narrow: text, network: undefined })
    }
  })
})
