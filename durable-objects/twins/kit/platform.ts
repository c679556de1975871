// The platform's mechanisms a twin may use beyond its call context, in one place: a twin imports
// the kit and the contract and nothing else of the platform (the dependency rules check it), so
// what it needs of the platform is named here.

/** Why a seeded webhook URL is refused under every egress setting, or undefined (seeds are checked before any sandbox exists). */
export { refusedUnderEverySetting } from "../../egress";
/**
 * Schedules a delivery from boot, which has no call context (a call uses `ctx.schedule`): the same
 * timed mechanism, the delivery fired through the twin's `deliver`.
 */
export { schedule as scheduleAtBoot } from "../../timed";
