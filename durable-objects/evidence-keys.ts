/** Where a sandbox's evidence lives in R2: `team-<team>/session-<ses>/<name>`. */
export const evidenceKey = (teamId: string, sessionId: string, name: string) => `team-${teamId}/session-${sessionId}/${name}`;
