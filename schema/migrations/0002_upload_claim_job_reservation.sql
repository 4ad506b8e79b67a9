ALTER TABLE `jobs` ADD `reservation_id` text;--> statement-breakpoint
CREATE INDEX `jobs_reservation` ON `jobs` (`reservation_id`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `claimed_at` text;