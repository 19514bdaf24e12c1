"""Safe loading, the controller's ground floor: every file a person wrote (a config, a scenario,
a content pack, a journal line) is read bounded (size, depth, aliases) and its errors name the
file, the line and the key."""
