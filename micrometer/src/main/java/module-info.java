/** Micrometer meters for an OVSDB client and a load-balancer engine. */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.ovnj.micrometer {
    requires transitive dev.ovnj.lb;
    requires transitive micrometer.core;

    exports dev.ovnj.micrometer;
}
