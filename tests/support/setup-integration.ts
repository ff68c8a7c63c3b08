import "./fail-on-console";
