/**
 * Desired-state OVN load balancers: specs, validation, plans, guarded minimal transactions,
 * continuous reconciliation and drift repair, and the diagnosis of why a load balancer does not
 * work.
 */
module dev.ovnj.lb {
    requires transitive dev.ovnj.ovsdb;
    requires transitive dev.ovnj.nb;
    requires transitive dev.ovnj.sb;
    requires java.management;
    requires org.slf4j;

    exports dev.ovnj.lb;
    exports dev.ovnj.lb.diagnosis;
    exports dev.ovnj.lb.plan;
    exports dev.ovnj.lb.spec;
}
