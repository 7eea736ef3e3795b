/**
 * An error that stops an app's start and whose message tells the operator all they need (what is
 * wrong and what to do): `runApp` prints it alone, without a stack trace.
 */
export class StartRefusal extends Error {}
