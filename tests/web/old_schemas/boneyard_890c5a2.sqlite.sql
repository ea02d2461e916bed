CREATE TABLE actions (
	game_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	action INTEGER NOT NULL, 
	player INTEGER NOT NULL, 
	PRIMARY KEY (game_id, seq), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE bot_jobs (
	id INTEGER NOT NULL, 
	"key" VARCHAR(80) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	priority INTEGER NOT NULL, 
	client VARCHAR(64) DEFAULT '' NOT NULL, 
	args JSON NOT NULL, 
	budget FLOAT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	attempts INTEGER NOT NULL, 
	worker VARCHAR(128), 
	lease_until FLOAT, 
	result INTEGER, 
	error TEXT, 
	created FLOAT NOT NULL, 
	finished FLOAT, 
	PRIMARY KEY (id), 
	UNIQUE ("key")
);
CREATE TABLE continuing_games (
	pair VARCHAR(140) NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	PRIMARY KEY (pair)
);
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	params JSON NOT NULL, 
	seed VARCHAR(128) NOT NULL, 
	seed_hash VARCHAR(64) NOT NULL, 
	seats JSON NOT NULL, 
	created FLOAT NOT NULL, 
	finished BOOLEAN NOT NULL, 
	returns TEXT, 
	PRIMARY KEY (id)
);
CREATE TABLE people (
	id VARCHAR(32) NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	secret_hash VARCHAR(64) NOT NULL, 
	created FLOAT NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE series_games (
	game_id VARCHAR(32) NOT NULL, 
	series_id VARCHAR(32) NOT NULL, 
	number INTEGER NOT NULL, 
	members JSON NOT NULL, 
	people JSON NOT NULL, 
	next_game VARCHAR(32), 
	open_seats JSON NOT NULL, 
	listed BOOLEAN NOT NULL, 
	created FLOAT NOT NULL, 
	carried JSON NOT NULL, 
	PRIMARY KEY (game_id)
);
CREATE TABLE session_events (
	game_id VARCHAR(32) NOT NULL, 
	number INTEGER NOT NULL, 
	at_seq INTEGER NOT NULL, 
	kind VARCHAR(32) NOT NULL, 
	seat INTEGER, 
	detail JSON NOT NULL, 
	time FLOAT NOT NULL, 
	PRIMARY KEY (game_id, number)
);
CREATE INDEX bot_jobs_by_turn ON bot_jobs (status, priority, id);
CREATE INDEX ix_series_games_series_id ON series_games (series_id);
