/**
 * Given / when / then for process managers, beside deciderSpec: a pure function from what happened
 * (`when`) and what is known at that moment (`given`) to what is to be done next.
 *   spec.given(project).when(queuedCheck).then(result)
 *   spec.when(failure).then(refund)            (a process that needs nothing known beforehand)
 */
export function processSpec<When, Then, Given = undefined>(process: (when: When, given: Given) => Then) {
  const outcome = (given: Given, input: When) => {
    const run = () => process(input, given);
    return {
      then(expected: Then) {
        expect(run()).toEqual(expected);
      },
      /** For assertions on an outcome that is not a literal (generated ids, say). */
      outcome: run,
    };
  };
  return {
    given: (given: Given) => ({ when: (input: When) => outcome(given, input) }),
    // Only a process whose Given is undefined is run without one.
    when: (input: When) => outcome(undefined as Given, input),
  };
}
