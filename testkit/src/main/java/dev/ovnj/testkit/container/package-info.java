/** Testcontainers launcher for machines with a Docker engine instead of local OVS tools. */
package dev.ovnj.testkit.container;
