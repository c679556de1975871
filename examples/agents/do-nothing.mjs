#!/usr/bin/env node
// The baseline every task must fail: reads its prompt, makes no call, and exits cleanly.
const prompt = process.env.POME_TASK_PROMPT ?? "";
console.error(`agent: received a ${prompt.length}-character prompt and did nothing`);
