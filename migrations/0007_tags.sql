CREATE TABLE "tag_merges" (
	"source_tag_id" uuid PRIMARY KEY NOT NULL,
	"topic_id" uuid NOT NULL,
	"source_name" text NOT NULL,
	"target_tag_id" uuid NOT NULL,
	"merged_by" uuid,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tag_merges" ADD CONSTRAINT "tag_merges_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_merges" ADD CONSTRAINT "tag_merges_target_tag_id_tags_id_fk" FOREIGN KEY ("target_tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_merges" ADD CONSTRAINT "tag_merges_merged_by_users_id_fk" FOREIGN KEY ("merged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tag_merges_topic_name_idx" ON "tag_merges" USING btree ("topic_id","source_name");--> statement-breakpoint
CREATE INDEX "tag_merges_target_idx" ON "tag_merges" USING btree ("target_tag_id");--> statement-breakpoint
CREATE INDEX "tags_topic_created_idx" ON "tags" USING btree ("topic_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tags_name_trgm_idx" ON "tags" USING gin ("name" gin_trgm_ops);