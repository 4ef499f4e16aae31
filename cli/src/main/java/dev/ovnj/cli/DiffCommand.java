package dev.ovnj.cli;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ovnj diff}: what {@code reconcile} would change, without writing; exit codes as diff(1). */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Print the plan that reconcile would carry out, without writing.",
                "Exit 0: in sync; 1: changes pending (or waiting for a router, switch or group); 2: invalid file or spec, or no database;"
                        + " 3: some load balancer conflicts with one ovnj does not own (listed as '! conflict:' lines);"
                        + " 4: reconcile would hold deletions (listed as '= SPEC kept:' lines): the file no longer names more than"
                        + " half of the owner's load balancers."})
final class DiffCommand implements Callable<Integer> {

    @Mixin
    private DatabaseOptions db;

    @Mixin
    private OutputOption output;

    @Mixin
    private DesiredStateFile stateFile;

    @Mixin
    private OwnerOption owner;

    @Option(names = "--allow-mass-delete", description = "Plan as reconcile --allow-mass-delete would: no deletion held.")
    private boolean allowMassDelete;

    @Mixin
    private AdoptOption adopt;

    @Override
    public Integer call() {
        DesiredState state = stateFile.require();
        String who = owner.or(state);
        try (NorthboundSession session = NorthboundSession.open(db)) {
            EffectiveSpecs specs = EffectiveSpecs.of(state, who);
            LoadBalancerPlan plan = session.engine().plan(who, specs.specs(), adopt.with(allowMassDelete));
            if (output.json()) {
                JsonDocument.print(System.out, DiffJson.of(plan, specs.problems()));
            } else {
                System.out.print(plan);
                System.out.flush();
            }
            specs.problems().forEach(System.err::println);
            if (!specs.problems().isEmpty() || !plan.invalid().isEmpty()) {
                return 2;
            }
            if (!plan.conflicts().isEmpty()) {
                return ReconcileCommand.CONFLICT;
            }
            if (!plan.held().isEmpty()) {
                return ReconcileCommand.HELD;
            }
            return plan.isEmpty() && plan.pending().isEmpty() ? 0 : 1;
        }
    }
}
